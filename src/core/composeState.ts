import { editFrontmatter, splitFrontmatter } from "./frontmatter.js";
import { FIELDS, type FieldName, USER_FIELDS } from "./fields.js";
import { type LoopState, parseState } from "./parseState.js";
import type { StartRequest } from "./parseStartArgs.js";

const GOAL_PLACEHOLDER = "{{goal}}";
/** The promise a loop started with no completion condition gets, written `<promise>DONE</promise>`. */
export const DEFAULT_PROMISE = "DONE";

/** Can the loop end before a limit: a promise, `until`, a checklist or a metric target? */
const hasEndCondition = (state: LoopState): boolean =>
  state.completion_promise.length > 0 ||
  state.until !== undefined ||
  state.checklist !== undefined ||
  state.metric_target !== undefined;

/** A state file without a template: the fields a user most often edits, with a hint on how to steer. */
const BASE = "---\n# continuation-loop: edit any field (or the goal below) to steer the running loop.\n---\n";

export interface ComposeInput {
  request: StartRequest;
  /** Text of templates/NAME.md, when --template was given. */
  template?: { text: string; file: string } | undefined;
  sessionId: string | undefined;
  now: number;
}

/** The goal inside the template's skeleton (at `{{goal}}`, else first), ending with a line break. */
function composeBody(goal: string, skeleton: string | undefined): string {
  const line = goal.endsWith("\n") ? goal : `${goal}\n`;
  if (skeleton === undefined || skeleton.trim() === "") return line;
  if (skeleton.includes(GOAL_PLACEHOLDER)) return skeleton.split(GOAL_PLACEHOLDER).join(goal);
  return `${line}\n${skeleton}`;
}

/**
 * The new state file's text: the template (or a small default) with every flag applied through the
 * byte-preserving frontmatter editor, bound to the session, started now. Pure; validated before return.
 */
export function composeStateFile({ request, template, sessionId, now }: ComposeInput): string {
  const file = template?.file ?? "the new state file";
  const base = template?.text ?? BASE;
  const skeleton = template ? splitFrontmatter(template.text, template.file).body : undefined;
  const given = request.fields;
  const updates: Partial<Record<FieldName, unknown>> = { active: true, iteration_count: 1 };
  // Without a template the file shows the iteration limit, the field a person most often edits.
  if (!template) updates.max_iterations = FIELDS.max_iterations.default;
  for (const field of USER_FIELDS) if (given[field] !== undefined) updates[field] = given[field];
  if (sessionId !== undefined) updates.session_id = sessionId;
  updates.started_at = new Date(now).toISOString();

  const front = editFrontmatter(base, updates, file);
  const closing = front.length - splitFrontmatter(front, file).body.length;
  const text = front.slice(0, closing) + composeBody(request.goal, skeleton);
  // No loop without a way to end early (README "Quick start"): with no condition, Claude ends it with DONE.
  if (hasEndCondition(parseState(text, file))) return text;
  const defaults: Partial<Record<FieldName, unknown>> = { completion_promise: DEFAULT_PROMISE };
  if (given.promise_format === undefined) defaults.promise_format = "tag";
  const withPromise = editFrontmatter(text, defaults, file);
  parseState(withPromise, file);
  return withPromise;
}
