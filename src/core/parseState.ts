import { parseDuration } from "./duration.js";
import { LoopError, renderReceived } from "./errors.js";
import { acceptsValue, expectedOf, type FieldName, isFieldName } from "./fields.js";
import { lineAt, type ParsedFrontmatter, parseFrontmatter } from "./frontmatter.js";
import { type MetricTarget, parseMetricTarget } from "./metric.js";
import { normalizeScopeEntry, readScopeEntries } from "./scope.js";

/** Validates every field the file sets with its zod schema; throws the first problem in file order. */
function checkFields(text: string, parsed: ParsedFrontmatter, file?: string): void {
  const problems = Object.entries(parsed.data)
    .filter(([field, value]) => isFieldName(field) && value != null && !acceptsValue(field, value))
    .map(([field, value]) => {
      const at = parsed.keyOffset(field);
      return new LoopError("STATE_BAD_FIELD", "invalid value", {
        file,
        field,
        line: at === undefined ? undefined : lineAt(text, at),
        expected: expectedOf(field as FieldName),
        received: renderReceived(value),
      });
    });
  problems.sort((a, b) => (a.details.line ?? 0) - (b.details.line ?? 0));
  if (problems[0]) throw problems[0];
}

/**
 * State-file text → validated LoopState with defaults. Pure; throws LoopError naming file, field, line.
 * `parsed`: the text's frontmatter when the caller has it already (one parse per Stop).
 */
export function parseState(text: string, file?: string, parsed = parseFrontmatter(text, file)): LoopState {
  checkFields(text, parsed, file);
  const data = parsed.data;
  const get = <T>(field: string, fallback: T): T => (data[field] ?? fallback) as T;
  const promise = get<string | string[] | undefined>("completion_promise", undefined);
  return {
    active: get("active", true),
    iteration_count: get("iteration_count", 1),
    max_iterations: get("max_iterations", 10),
    completion_promise: promise === undefined ? [] : Array.isArray(promise) ? promise : [promise],
    promise_format: get("promise_format", "substring"),
    completion_threshold: get("completion_threshold", 1),
    checklist: get<string | undefined>("checklist", undefined),
    max_duration: data.max_duration == null ? undefined : parseDuration(data.max_duration),
    max_tokens: get<number | undefined>("max_tokens", undefined),
    max_cost: get<number | undefined>("max_cost", undefined),
    until: get<string | undefined>("until", undefined),
    verify: get<string | undefined>("verify", undefined),
    verify_timeout: parseDuration(data.verify_timeout ?? "5m") ?? 300,
    notes_file: get<string | undefined>("notes_file", undefined),
    stall_limit: get("stall_limit", 3),
    max_api_failures: get("max_api_failures", 5),
    require_todos_done: get("require_todos_done", false),
    checkpoints: get("checkpoints", false),
    notify: get("notify", true),
    metric: get<string | undefined>("metric", undefined),
    metric_target: parseMetricTarget(data.metric_target),
    max_no_improvement: get<number | undefined>("max_no_improvement", undefined),
    metric_timeout: parseDuration(data.metric_timeout ?? "5m") ?? 300,
    scope: data.scope == null ? undefined : readScopeEntries(data.scope)?.map((e) => normalizeScopeEntry(e) ?? e),
    max_files_changed: get<number | undefined>("max_files_changed", undefined),
    fresh_context: get("fresh_context", false),
    session_id: get<string | undefined>("session_id", undefined),
    started_at: get<string | undefined>("started_at", undefined),
    body: parsed.split.body,
  };
}

/** A loop's fields with defaults applied and durations in seconds; the goal is the body. */
export interface LoopState {
  active: boolean;
  iteration_count: number;
  max_iterations: number;
  completion_promise: string[];
  promise_format: "substring" | "tag";
  completion_threshold: number;
  /** A Markdown file of task boxes, relative to the project root. */
  checklist: string | undefined;
  max_duration: number | undefined;
  max_tokens: number | undefined;
  /** US dollars, by Claude Code's own figures (README "Spend limits"). */
  max_cost: number | undefined;
  /** Runs at every Stop; exit 0 completes the loop (README "Until"). */
  until: string | undefined;
  verify: string | undefined;
  verify_timeout: number;
  notes_file: string | undefined;
  stall_limit: number;
  /** API errors in a row after which the loop pauses instead of going on by itself (docs/REFERENCE.md "Going on after an API error"). */
  max_api_failures: number;
  require_todos_done: boolean;
  checkpoints: boolean;
  notify: boolean;
  /** Improvement loops (docs/REFERENCE.md "Improvement loops"): the command, its target and limits. */
  metric: string | undefined;
  metric_target: MetricTarget | undefined;
  max_no_improvement: number | undefined;
  metric_timeout: number;
  /** Normalized paths relative to the root ("" is the whole project); undefined when unset. */
  scope: string[] | undefined;
  max_files_changed: number | undefined;
  /** Each continuation starts from a cleared context (docs/REFERENCE.md "Fresh context"). */
  fresh_context: boolean;
  session_id: string | undefined;
  started_at: string | undefined;
  /** The goal: everything after the closing `---`, exactly as written. */
  body: string;
}
