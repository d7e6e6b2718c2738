// What `continuation-loop run` prints (docs/REFERENCE.md "continuation-loop run"): one line per record of
// the loop's history on stderr, or one live line in a terminal; why Claude Code is started again; the end.
import { renderApiFailure, renderApiFailureCheck } from "./apiFailure.js";
import type { ClaudeExit, RunStep } from "./decideRun.js";
import { clipToCells } from "./cellWidth.js";
import { renderDuration } from "./duration.js";
import { type HistoryRecord, readRefusedToolsOf } from "./history.js";
import { NODE_MIN } from "./nodeSupport.js";
import type { LoopState } from "./parseState.js";
import type { Runtime } from "./sidecar.js";
import { LOOP_MARKER } from "./protocol.js";
import { renderNameFlag } from "./loopFileNames.js";
import { renderStartContext } from "./renderStart.js";
import { firstLine } from "./renderStatus.js";
import { renderUsd } from "./reportFormat.js";
import { renderShellWord } from "./renderShellWord.js";

/** What the progress line shows, kept up to date by the loop's records. */
export interface RunView {
  /** The loop's state file as users see it. */
  shown: string;
  /** The loop's name: `default`, or the one `--name` chooses. */
  name: string;
  /** The iteration running now. */
  iteration: number;
  max: number;
  /** When the loop started (ms), for the elapsed time. */
  startedAt: number | undefined;
  spend: number | undefined;
  /** The last record's news: the until command's status, the metric, the reply's first words. */
  detail: string;
  /** Each tool Claude Code's permission check refused, and at how many of this run's iterations. */
  refused?: Record<string, number>;
}

/** "2m14s": the elapsed time, compact. */
const renderElapsed = (seconds: number): string => renderDuration(seconds).replace(/ /g, "");

const renderSince = (startedAt: number | undefined, at: number): string =>
  startedAt === undefined || !Number.isFinite(at) ? "" : ` ${renderElapsed(Math.max(0, (at - startedAt) / 1000))}`;

const renderSpend = (usd: number | undefined): string => (usd === undefined ? "" : ` ${renderUsd(usd)}`);

/** The news of one record, in a few words; the tools Claude Code refused in the turn after it. */
function describeRecord(r: HistoryRecord): string {
  const tools = readRefusedToolsOf(r);
  const refused = tools.length ? ` (refused: ${tools.join(", ")})` : "";
  return `${describeDecision(r)}${refused}`;
}

function describeDecision(r: HistoryRecord): string {
  switch (r.decision) {
    case "continue":
      if (r.until_failure) return `until: ${firstLine(r.until_failure.replace(/`/g, ""), 80)}`;
      // A promise refused (verify failed, a box open): the reply alone would read as a loop that completed.
      if (r.refusal) return `refused: ${firstLine(r.refusal.replace(/`/g, ""), 100).replace(/\.? Last output:$/, "")}`;
      if (r.metric !== undefined) return `metric ${r.metric ?? `no value (${r.metric_error ?? "?"})`}`;
      return r.reply_line ? `"${firstLine(r.reply_line, 60)}"` : "continue";
    case "end":
      return `${r.reason ?? "ended"}${r.promise ? ` (promise "${r.promise}")` : ""}`;
    case "pause":
      return `paused: ${firstLine(r.question ?? r.scope ?? r.reason ?? "for you", 100)}`;
    case "api_error":
      return `API error (${r.reason ?? "unknown"})`;
    case "wait":
      return `waiting${r.wait_s === undefined ? "" : ` ${renderElapsed(r.wait_s)}`} after an API error`;
    case "refused":
      return `refused: ${firstLine(r.refusal ?? r.reason ?? "", 100)}`;
    default:
      return `${r.decision}${r.reason ? ` (${r.reason})` : ""}`;
  }
}

/** The view after a record of the loop: a continue starts the next iteration. */
export function applyRecord(view: RunView, r: HistoryRecord): RunView {
  const at = typeof r.iteration === "number" ? r.iteration : view.iteration;
  const refused = readRefusedToolsOf(r);
  return {
    ...view,
    iteration: r.decision === "continue" ? at + 1 : at,
    spend: r.cost_usd ?? view.spend,
    detail: describeRecord(r),
    ...(refused.length && { refused: countRefused(view.refused, refused) }),
  };
}

function countRefused(counts: Record<string, number> = {}, tools: string[]): Record<string, number> {
  const next = { ...counts };
  for (const tool of tools) next[tool] = (next[tool] ?? 0) + 1;
  return next;
}

/**
 * After the end line: the tools Claude Code refused during the run. In `-p` nobody answers a permission prompt,
 * so a tool no rule allows is refused turn after turn; the line names each and how to allow it.
 */
export function renderRefusedTools(view: RunView): string | undefined {
  const refused = Object.entries(view.refused ?? {});
  if (refused.length === 0) return undefined;
  const named = refused.map(([tool, n]) => `${tool} (at ${n} iteration${n === 1 ? "" : "s"})`).join(", ");
  const tools = refused.map(([tool]) => tool).filter((tool) => tool !== "a tool");
  const allow = tools.length
    ? `-- --allowedTools ${renderShellWord(tools.join(" "))}`
    : "-- --allowedTools with the tools it needs";
  return `continuation-loop: Claude Code refused ${named}: with -p nobody answers a permission prompt. Allow what the loop needs: run it again with ${allow} (or a narrower rule such as "Bash(npm test)"), or in permissions.allow of .claude/settings.json.`;
}

/** One record as one line: `[3/20] 2m14s $0.420 until: npm test exited with status 1`. */
export function renderRecordLine(view: RunView, r: HistoryRecord): string {
  const n = typeof r.iteration === "number" ? r.iteration : view.iteration;
  return `[${n}/${view.max}]${renderSince(view.startedAt, Date.parse(r.time))}${renderSpend(r.cost_usd ?? view.spend)} ${describeRecord(r)}`;
}

/** The live line in a terminal: the iteration running now, the time so far, the last news; cut to the width. */
export function renderLiveLine(view: RunView, now: number, columns: number): string {
  const line = `[${view.iteration}/${view.max}]${renderSince(view.startedAt, now)}${renderSpend(view.spend)} ${view.detail}`;
  // Cells, not characters: a wide reply cut by its length would still wrap, and the redraw would leave a row behind.
  return clipToCells(line, Math.max(10, columns - 1));
}

function describeExit(exit: ClaudeExit): string {
  if (exit.error !== undefined) return `could not be started (${exit.error})`;
  if (exit.signal) return `was killed (${exit.signal})`;
  return `exited with code ${exit.code ?? "?"}`;
}

/** Why Claude Code is started again, and when. */
export function renderRestartNotice(
  exit: ClaudeExit,
  step: { delayMs: number; attempt: number },
  view: RunView,
  maxRestarts: number,
): string {
  return `continuation-loop: Claude Code ${describeExit(exit)} with the loop at iteration ${view.iteration}/${view.max}; starting it again in ${renderElapsed(step.delayMs / 1000)} (restart ${step.attempt} of at most ${maxRestarts} in a row without a new iteration).`;
}

/** What a person does next with a loop that `run` leaves in place: the loop's own name, as the commands choose it. */
export const renderLeftInPlace = (view: Pick<RunView, "shown" | "name">): string =>
  `The loop is still in ${view.shown}: \`continuation-loop run${renderNameFlag(view.name)}\` (no goal) takes it over, \`continuation-loop stop${renderNameFlag(view.name)}\` ends it.`;

export interface RunEnd {
  step: Extract<RunStep, { kind: "exit" }>;
  view: RunView;
  now: number;
  /** The end's reason, a pause's question, an invalid file's message, the session that took the loop over. */
  reason: string;
  exit: ClaudeExit;
  restartsInARow: number;
  /** The last lines Claude Code printed, when it could not run. */
  tail: string;
  /** The session that owns the loop, for a paused one. */
  session: string | undefined;
  /** The loop's `max_duration` in seconds, when it has one. */
  maxDuration: number | undefined;
}

/** The last line `run` prints: how the loop ended, or why `run` stops with the loop in place. */
export function renderRunEnd(end: RunEnd): string {
  const { view, step } = end;
  const at = `iteration ${view.iteration}/${view.max}`;
  const tally = `${renderSince(view.startedAt, end.now).trim() || "?"}${renderSpend(view.spend)}`;
  switch (step.why) {
    case "ended":
      return `continuation-loop: the loop ${end.reason === "completed" ? "completed" : `ended (${end.reason})`} at ${at}, ${tally}. Exit ${step.code}.`;
    case "paused":
      return `continuation-loop: the loop is paused for you at ${at}: ${end.reason}. ${end.session ? `Answer it in its session (claude --resume ${end.session}), or ` : ""}\`continuation-loop resume${renderNameFlag(view.name)}\`, then \`continuation-loop run${renderNameFlag(view.name)}\` again. Exit ${step.code}.`;
    case "taken":
      return `continuation-loop: the loop was taken over by session ${end.reason || "?"} at ${at}; it goes on there, so this run stops. Exit ${step.code}.`;
    case "invalid":
      return `continuation-loop: ${end.reason}. The loop waits until the file is fixed; then \`continuation-loop run${renderNameFlag(view.name)}\` again. Exit ${step.code}.`;
    case "time":
      return `continuation-loop: the loop's max_duration (${end.maxDuration === undefined ? "?" : renderDuration(end.maxDuration)}) runs out before Claude Code could go on, so it is not started again. ${renderLeftInPlace(view)} Exit ${step.code}.`;
    case "api":
      return `continuation-loop: Claude Code could not run: ${renderApiFailure(step.failure)}, which starting it again would not mend. ${renderApiFailureCheck(step.lasting)}. ${renderLeftInPlace(view)} Exit ${step.code}.`;
    case "restarts": {
      const times = end.restartsInARow > 0 ? `, ${end.restartsInARow + 1} times in a row without a new iteration` : "";
      const tail = end.tail.trim()
        ? ` It said: ${firstLine(end.tail.trim().split("\n").slice(-3).join(" | "), 300)}`
        : "";
      return `continuation-loop: Claude Code could not run: it ${describeExit(end.exit)}${times}.${tail} ${renderLeftInPlace(view)} Exit ${step.code}.`;
    }
  }
}

/**
 * The prompt of a restarted Claude Code (`claude -p --resume`): the loop's marker, so the prompt hook takes it
 * for the loop's own continuation (no pause, no answer), then where the loop is and its goal. The turn it
 * starts is the iteration the state file holds, which the next Stop counts, once.
 */
export function renderRestartPrompt(state: LoopState, runtime: Runtime, shown: string, now: number): string {
  const rest = renderStartContext(state, shown, now, runtime).split("\n\n").slice(2).join("\n\n");
  return `${LOOP_MARKER} Claude Code stopped before the turn ended and was started again; the continuation loop goes on (iteration ${state.iteration_count}/${state.max_iterations}). Pick up where the last turn left off: check the project's files for what it already did.\n\n${rest}`;
}

/** `continuation-loop run --help`. */
export function renderRunUsage(): string {
  return [
    "Usage: continuation-loop run [options] [loop flags] GOAL… [-- CLAUDE_ARGS…]",
    "       continuation-loop run [--name NAME] [options] [-- CLAUDE_ARGS…]",
    "",
    'Starts a loop (loop flags as `start` takes them: --until "npm test", --max-iterations 20, --name, …) and drives',
    "`claude -p` in the foreground until the loop ends. Without a GOAL it takes over the project's loop (--name's,",
    "else the default one) when it is not paused and no Claude Code process runs it. Claude Code's output goes to",
    "stdout as it comes; stderr has one line per iteration (a live line in a terminal).",
    "",
    "Options:",
    "  --report FILE       write the report (Markdown) at the end; it is also appended to $GITHUB_STEP_SUMMARY when set",
    "  --html FILE         write the report as a page with charts",
    "  --max-restarts N    start Claude Code again after it dies at most N times in a row without a new iteration",
    "                      (default 3; 0: never), after 2s, 4s, 8s …, never past the loop's own limits",
    "  -- CLAUDE_ARGS…     passed to claude unchanged: --permission-mode, --allowedTools, --model, …",
    "",
    "Claude Code: $CONTINUATION_LOOP_CLAUDE, else `claude` on PATH.",
    "Exit codes: 0 completed; 1 ended by a limit or a stall (or stopped); 2 bad arguments, or no loop to take over;",
    "3 paused for a person; 4 Claude Code could not run (not found, an API error no restart mends such as a refused",
    `or missing key, it kept dying, or no node ${NODE_MIN} or later on PATH for its hooks).`,
  ].join("\n");
}
