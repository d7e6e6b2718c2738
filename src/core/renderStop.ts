import { renderGoal } from "./lineBreaks.js";
import { renderPromisePhrase } from "./matchPromise.js";
import { type Checklist, renderChecklistProgress } from "./checklist.js";
import type { EndReason, StopDecision } from "./decideStop.js";
import { elapsedSeconds, renderDuration } from "./duration.js";
import { formatCount } from "./formatCount.js";
import { hashText } from "./hash.js";
import { LOOP_MARKER } from "./protocol.js";
import { renderNameFlag } from "./loopFileNames.js";
import type { LoopState } from "./parseState.js";
import { readLoopSpend, type Runtime } from "./sidecar.js";
import { renderMetricEnd, renderMetricReminder, renderMetricSection } from "./renderMetric.js";

/** Never below 0: `max_iterations` lowered under the count has nothing left, not a debt. */
const countIterationsLeft = (state: LoopState, iteration: number): number =>
  Math.max(0, state.max_iterations - iteration);

/** "iterations 3/10 (7 left) · time 12m of 2h (1h 48m left) · …": what is used and left of each limit. */
export function renderLimits(state: LoopState, runtime: Runtime, iteration: number, now: number): string {
  const parts = [`iterations ${iteration}/${state.max_iterations} (${countIterationsLeft(state, iteration)} left)`];
  const elapsed = elapsedSeconds(state, now);
  if (state.max_duration !== undefined) {
    const used = elapsed ?? 0;
    parts.push(
      `time ${renderDuration(used)} of ${renderDuration(state.max_duration)} (${renderDuration(state.max_duration - used)} left)`,
    );
  }
  if (state.max_tokens !== undefined) {
    const left = Math.max(0, state.max_tokens - runtime.output_tokens);
    parts.push(
      `output tokens ${formatCount(runtime.output_tokens)} of ${formatCount(state.max_tokens)} (${formatCount(left)} left)`,
    );
  }
  if (state.max_cost !== undefined) {
    const spent = readLoopSpend(runtime);
    parts.push(
      spent === undefined
        ? `cost: no figure from Claude Code yet, of $${state.max_cost.toFixed(2)}`
        : `cost $${spent.toFixed(2)} of $${state.max_cost.toFixed(2)} ($${Math.max(0, state.max_cost - spent).toFixed(2)} left)`,
    );
  }
  if (state.stall_limit > 0) parts.push(`unchanged turns ${runtime.stall_count}/${state.stall_limit}`);
  if (state.completion_threshold > 1)
    parts.push(`promise streak ${runtime.promise_streak}/${state.completion_threshold}`);
  return parts.join(" · ");
}

/**
 * What the loop lets Claude change, when the person said (`scope`, `max_files_changed`): told up front, since a
 * Stop that finds more pauses the loop for the person (docs/REFERENCE.md "Improvement loops").
 */
export function renderScopeRule(state: LoopState): string | undefined {
  const parts = [
    state.scope ? `change only ${state.scope.join(", ")}` : "",
    state.max_files_changed !== undefined ? `at most ${state.max_files_changed} files an iteration` : "",
  ].filter(Boolean);
  if (parts.length === 0) return undefined;
  return `Scope: ${parts.join("; ")} (the loop's own files aside). A stop that finds more pauses the loop for the user.`;
}

/** How Claude pauses the loop to ask the user (docs/REFERENCE.md "Pausing"). */
const PAUSE_HINT =
  "Blocked on something only the user can decide? End your reply with <loop-pause>your question</loop-pause>: the loop waits for their answer. Only for real blockers, never to stop working.";

export function renderFinish(state: LoopState): string {
  return `${renderFinishLine(state)}\n${PAUSE_HINT}`;
}

/** How `until` ends the loop (docs/REFERENCE.md "How a loop ends"): it runs at every stop, exit 0 completes. */
const renderUntilLine = (until: string, alone: boolean) =>
  `The loop ${alone ? "" : "also "}completes by itself when \`${until}\` exits 0: it runs in the project root each time you stop, and its output comes back to you when it fails.`;

function renderFinishLine(state: LoopState): string {
  const phrases = state.completion_promise;
  if (phrases.length === 0) {
    if (state.until) return [renderUntilLine(state.until, true), ...renderGateLines(state)].join("\n");
    if (state.metric_target && state.metric) return "The loop completes when the metric reaches its target.";
    return state.checklist
      ? `The loop completes when every box of ${state.checklist} is checked.`
      : "There is no completion phrase: the loop runs until a limit is reached or the user runs /loop-stop.";
  }
  const shown = phrases.map((p) => renderPromisePhrase(p, state.promise_format)).join(" or ");
  const lines = [
    `When, and only when, the goal is fully done and verified, end your reply with ${shown}.`,
    "Do not write it to escape the loop: the loop is meant to go on until it is true.",
  ];
  if (state.completion_threshold > 1)
    lines.push(`It must appear in ${state.completion_threshold} consecutive replies.`);
  if (state.until) lines.push(renderUntilLine(state.until, false));
  lines.push(...renderGateLines(state));
  return lines.join("\n");
}

/** The gates a completion still passes: verify, the checklist, the todos. */
function renderGateLines(state: LoopState): string[] {
  const lines: string[] = [];
  if (state.verify) lines.push(`It is then checked by running \`${state.verify}\`, which must exit 0.`);
  if (state.checklist) lines.push(`It is not accepted while a box of ${state.checklist} is unchecked.`);
  if (state.require_todos_done) lines.push("It is not accepted while the todo list has unfinished items.");
  if (state.until && state.completion_promise.length > 0)
    lines.push(`Your phrase is not accepted while \`${state.until}\` fails.`);
  return lines;
}

export interface ContinuationExtras {
  notes?: { path: string; text: string };
  checklist?: Checklist;
  unfinishedTodos?: { subject: string; status: string }[];
  /** `fresh_context`: sent into a cleared context, so the prompt stands alone (docs/REFERENCE.md "Fresh context"). */
  fresh?: boolean;
  /** Background tasks still running that the loop does not wait for (`renderNotHeld`). */
  background?: string;
}

/**
 * Fingerprint of what the full continuation prompt says (goal, limits, finish line, notes, the
 * checklist's tasks): when it is what was sent last, the prompt carries no news and a short reminder
 * is enough. A box being checked is not news (the reminder shows the progress); a task added is. The
 * fields' values count, not how the file spells them (`2h` or `120m`, a comment moving a line), and the
 * goal and notes as the prompt shows them, trimmed.
 */
export function renderPromptDigest(state: LoopState, notes: string | undefined, checklist?: Checklist): string {
  const {
    iteration_count: _count,
    started_at: _start,
    session_id: _owner,
    written: _spelled,
    mistyped: _told,
    body,
    ...said
  } = state;
  const tasks = checklist?.items.map((item) => item.text) ?? null;
  return hashText(JSON.stringify([said, renderGoal(body), notes?.trim() ?? null, tasks]));
}

/** What is left of each limit, briefly: "7 left · 1h 2m left · 4,000 tokens left". */
function renderLeft(state: LoopState, runtime: Runtime, next: number, now: number): string {
  const parts = [`${countIterationsLeft(state, next)} left`];
  const elapsed = elapsedSeconds(state, now);
  if (state.max_duration !== undefined) parts.push(`${renderDuration(state.max_duration - (elapsed ?? 0))} left`);
  if (state.max_tokens !== undefined) {
    parts.push(`${formatCount(Math.max(0, state.max_tokens - runtime.output_tokens))} output tokens left`);
  }
  const spent = readLoopSpend(runtime);
  if (state.max_cost !== undefined && spent !== undefined)
    parts.push(`$${Math.max(0, state.max_cost - spent).toFixed(2)} left`);
  if (state.completion_threshold > 1)
    parts.push(`promise streak ${runtime.promise_streak}/${state.completion_threshold}`);
  return parts.join(" · ");
}

/** Most lines of the `until` command's output a reminder repeats: the first failure went out in full. */
const REMINDER_TAIL_LINES = 6;
const REMINDER_TAIL_CHARS = 800;

/** Timings and clock times, which change from run to run of the same failing command. */
const VOLATILE =
  /(?<![\w.])\d+(?:[.,]\d+)?\s?(?:ms|s|secs?|seconds?|min|mins|minutes?)(?!\w)|(?<![\d:])\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?![\d:])/g;

/**
 * Fingerprint of the `until` command's failure as Claude is told it: its status and its output's tail,
 * timings aside (a test run's "Duration 1.2s" is not news). The same one again is said in a few words.
 */
export function renderUntilDigest(status: string, tail: string): string {
  return hashText(`${status}\n${tail.replace(VOLATILE, "#")}`);
}

/** The `until` command failed at this Stop: its status, its output's tail, and whether Claude was told exactly that last time. */
export interface UntilNews {
  status: string;
  tail: string;
  same: boolean;
}

/** The reminder's word on the `until` command: its status, and the end of its output unless Claude had the same last time. */
function renderUntilNews(until: UntilNews): { status: string; output: string } {
  if (until.same) return { status: `${until.status} again, with the same output as last time.`, output: "" };
  const status = `${until.status}.`;
  if (until.tail === "") return { status, output: "" };
  const lines = until.tail.split("\n");
  if (lines.length <= REMINDER_TAIL_LINES && until.tail.length <= REMINDER_TAIL_CHARS)
    return { status, output: ` Its output:\n${until.tail}` };
  const kept = lines.slice(-REMINDER_TAIL_LINES).join("\n");
  const tail = kept.length > REMINDER_TAIL_CHARS ? `…${kept.slice(-REMINDER_TAIL_CHARS)}` : kept;
  return { status, output: ` The end of its output (run it for the rest):\n${tail}` };
}

/**
 * The reminder sent when nothing changed since the full prompt (docs/REFERENCE.md "What you see while a loop runs"): one line
 * with the marker, n/max, what is left and how to finish. Claude Code prints whatever a Stop hook
 * sends, so an ordinary iteration costs about three screen lines. A failed `until` adds its status and,
 * when its output changed, the last few lines of it.
 */
export function renderReminder(
  state: LoopState,
  decision: Extract<StopDecision, { kind: "continue" }>,
  now: number,
  extras: {
    checklist?: Checklist | undefined;
    until?: UntilNews | undefined;
    /** Background tasks still running that the loop does not wait for (`renderNotHeld`). */
    background?: string;
  } = {},
): string {
  const phrases = state.completion_promise.map((p) => renderPromisePhrase(p, state.promise_format));
  const finish = phrases.length
    ? `Say ${phrases.join(" or ")} only when it is true.`
    : state.until
      ? `It completes when ${extras.until ? "it" : `\`${state.until}\``} exits 0.`
      : state.checklist
        ? "It completes when every box is checked."
        : state.metric_target
          ? "It completes when the metric reaches its target."
          : "It ends at a limit or /loop-stop.";
  const list = extras.checklist ? ` Checklist ${renderChecklistProgress(extras.checklist)}.` : "";
  const metric = renderMetricReminder(state, decision.runtime);
  const until = extras.until && renderUntilNews(extras.until);
  const left = renderLeft(state, decision.runtime, decision.next, now);
  // One screen row at 140 columns for a short promise: Claude Code shows it between two replies.
  const tasks = extras.background ? ` ${extras.background}` : "";
  const head = `${LOOP_MARKER} iteration ${decision.next}/${state.max_iterations} (${left}): keep working.${list}${metric}`;
  return until ? `${head} ${until.status} ${finish}${tasks}${until.output}\n` : `${head} ${finish}${tasks}\n`;
}

/** The text Claude reads when it is sent back to work (written to stderr with exit 2). */
export function renderContinuation(
  state: LoopState,
  decision: Extract<StopDecision, { kind: "continue" }>,
  now: number,
  extras: ContinuationExtras = {},
): string {
  const sections = [
    LOOP_MARKER,
    extras.fresh
      ? renderFreshIntro(state, decision.next)
      : `Continuation loop: iteration ${decision.next}/${state.max_iterations}. You tried to stop, but the goal below is not done yet: keep working on it.`,
    `Limits: ${renderLimits(state, decision.runtime, decision.next, now)}`,
    `Goal:\n${renderGoal(state.body)}`,
  ];
  if (extras.notes) {
    const keep = extras.fresh
      ? "the loop's memory between iterations. Before you end this reply, update it with what is done, what you learned and what is next: the next iteration starts from a cleared context and knows only this file and the project"
      : "keep this file current with what is done and what is next";
    sections.push(`Notes (${extras.notes.path}) — ${keep}:\n${extras.notes.text.trim() || "(empty)"}`);
  }
  if (extras.checklist && state.checklist) {
    sections.push(
      `Checklist (${state.checklist}): ${renderChecklistProgress(extras.checklist)}. Check each box ("- [x]") in that file as soon as its task is done; the loop is complete when every box is checked.`,
    );
  }
  const metric = renderMetricSection(state, decision.runtime);
  if (metric) sections.push(metric);
  const scope = renderScopeRule(state);
  if (scope) sections.push(scope);
  if (extras.background) sections.push(`Background work: ${extras.background}`);
  sections.push(`How to finish:\n${renderFinish(state)}`);
  if (decision.refusal) sections.push(`Your last completion was not accepted: ${decision.refusal}`);
  else if (decision.untilFailure) sections.push(`Not done yet: ${decision.untilFailure}`);
  return `${sections.join("\n\n")}\n`;
}

/** The first line of a prompt sent into a cleared context: what the loop is, with nothing before it to refer to. */
function renderFreshIntro(state: LoopState, next: number): string {
  const memory = state.notes_file
    ? `the notes file ${state.notes_file} (below) and the project's files`
    : "the project's files (the code, git status and log)";
  return `Continuation loop: iteration ${next}/${state.max_iterations}, in a fresh context. The context was cleared before this message (fresh_context): what earlier iterations did is in ${memory}, not in this conversation. Keep working on the goal below; it is not done yet.`;
}

const REASONS: Record<EndReason, string> = {
  completed: "completed",
  max_iterations: "reached max_iterations",
  max_duration: "reached max_duration",
  max_tokens: "reached max_tokens",
  max_cost: "reached max_cost",
  stalled: "stalled (turns changed nothing)",
  no_improvement: "ended as no_improvement (the metric did not beat its best for max_no_improvement stops)",
  stopped: "stopped by the user",
};

/** Ends a person may want to go on from: the same goal and fields again, its counts from the start. */
const GO_ON_REASONS = new Set<EndReason>([
  "max_iterations",
  "max_duration",
  "max_tokens",
  "max_cost",
  "stalled",
  "no_improvement",
]);

/** The next step after an end by a limit or a stall (docs/REFERENCE.md "History"); "" after any other end. */
function renderGoOn(state: LoopState, reason: EndReason, name: string): string {
  if (!GO_ON_REASONS.has(reason)) return "";
  return ` /loop-start --again${renderNameFlag(name)} runs it again from 1/${state.max_iterations}.`;
}

/** The one line the user sees when a loop ends (`during`: what the loop was doing, when not a Stop). */
export function renderEndMessage(
  state: LoopState,
  decision: Extract<StopDecision, { kind: "end" }>,
  now: number,
  name: string,
  during = "",
): string {
  const elapsed = elapsedSeconds(state, now);
  const facts = [
    `${decision.iteration}/${state.max_iterations} iterations`,
    elapsed === undefined ? "" : `${renderDuration(elapsed)} elapsed`,
    decision.runtime.output_tokens > 0 ? `${formatCount(decision.runtime.output_tokens)} output tokens` : "",
    readLoopSpend(decision.runtime) === undefined ? "" : `$${readLoopSpend(decision.runtime)?.toFixed(2)} spent`,
  ].filter(Boolean);
  const why =
    decision.reason === "completed" && decision.promise
      ? `completed (promise "${decision.promise}" seen)`
      : decision.reason === "completed" && state.checklist
        ? `completed (every box of ${state.checklist} checked)`
        : decision.reason === "completed" && state.metric_target
          ? "completed (the metric reached its target)"
          : decision.reason === "completed" && state.until
            ? `completed (\`${state.until}\` exited 0)`
            : REASONS[decision.reason];
  const refused = decision.refusal ? ` The last completion was refused: ${decision.refusal.split("\n")[0]}` : "";
  const limits = renderLimits(state, decision.runtime, decision.iteration, now);
  const context = during ? ` ${during}` : "";
  return `continuation-loop: loop ${why} after ${facts.join(", ")}.${renderMetricEnd(state, decision.runtime)}${refused} Limits: ${limits}.${context}${renderGoOn(state, decision.reason, name)}`;
}
