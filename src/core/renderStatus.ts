import { elapsedSeconds } from "./decideStop.js";
import { renderDuration } from "./duration.js";
import type { LoopState } from "./parseState.js";
import { renderLimits } from "./renderStop.js";
import { readLoopSpend, type Runtime } from "./sidecar.js";
import { formatCount } from "./formatCount.js";
import type { HistoryRecord } from "./history.js";
import { renderImprovementStatus, renderMetricBrief } from "./renderMetric.js";

const fmt = formatCount;
export const firstLine = (text: string, max = 100): string => {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};
export const shortId = (id: string | undefined): string => (id ? id.slice(0, 8) : "-");

/** "12:03:05 iteration 2 continue" / "… end (completed, promise "x")". */
function renderDecision(record: HistoryRecord): string {
  const time = record.time ? record.time.replace("T", " ").replace(/\.\d+Z$/, "Z") : "?";
  const what =
    record.decision === "end"
      ? `ended: ${record.reason ?? "?"}`
      : record.decision === "continue"
        ? "continued"
        : `${record.decision.replace("_", " ")}: ${record.reason ?? "?"}`;
  const extra = [
    record.promise ? `promise "${record.promise}"` : "",
    record.refusal ? `refused: ${firstLine(record.refusal, 80)}` : "",
  ].filter(Boolean);
  return `${time}  iteration ${record.iteration ?? "?"}  ${what}${extra.length ? ` (${extra.join("; ")})` : ""}`;
}

function renderOwner(state: LoopState, sessionId: string | undefined): string {
  if (!state.session_id) return "none yet (the first session that stops claims the loop)";
  if (!sessionId) return state.session_id;
  return `${state.session_id} (${state.session_id === sessionId ? "this session" : "another session: this one is not continued"})`;
}

function renderTokens(runtime: Runtime): string {
  const { output_tokens: total, tokens_by_model: byModel } = runtime;
  const models = Object.entries(byModel).map(([model, n]) => `${model} ${fmt(n)}`);
  return `${fmt(total)} output tokens${models.length ? ` (${models.join(", ")})` : ""}`;
}

const BARS = "▁▂▃▄▅▆▇█";

/**
 * Output tokens of each iteration, as a sparkline ("▁▃█▅"), from the loop's history: each record
 * holds the loop's running total, so an iteration's share is the step from the record before.
 */
export function renderTokenSparkline(records: HistoryRecord[]): string {
  const totals = records.map((r) => r.output_tokens).filter((n): n is number => typeof n === "number");
  const steps = totals.map((total, i) => Math.max(0, total - (i > 0 ? (totals[i - 1] ?? 0) : 0)));
  const top = Math.max(...steps, 0);
  if (steps.length === 0 || top === 0) return "";
  return steps.map((n) => BARS[Math.min(BARS.length - 1, Math.floor((n / top) * (BARS.length - 1)))]).join("");
}

/** What /loop-status shows besides the state: the checklist's progress, when the loop has one. */
export interface StatusExtras {
  /** "3/5 done · next: …", or why the checklist cannot be read. */
  checklist?: string;
  /** The loop's history records since its start, for the per-iteration sparkline. */
  records?: HistoryRecord[];
}

/** The /loop-status text: where the loop is, what is used and left, who owns it, what was decided last. */
export function renderStatus(
  state: LoopState,
  runtime: Runtime,
  shown: string,
  recent: HistoryRecord[],
  now: number,
  sessionId?: string,
  extras: StatusExtras = {},
): string {
  const elapsed = elapsedSeconds(state, now);
  const promise = state.completion_promise.length
    ? `${state.completion_promise.map((p) => JSON.stringify(p)).join(" or ")} (${state.promise_format})`
    : "none: the loop runs until a limit or /loop-stop";
  const question = runtime.pause?.reason === "question" ? runtime.pause.text : undefined;
  const lines = [
    `continuation-loop: loop ${!state.active ? "paused (active: false)" : question !== undefined ? "paused: Claude asked you a question" : "running"}, iteration ${state.iteration_count}/${state.max_iterations}`,
    ...(question !== undefined ? [`  question: ${question} (your next prompt answers it)`] : []),
    `  goal: ${firstLine(state.body)}`,
    `  promise: ${promise}`,
    `  limits: ${renderLimits(state, runtime, state.iteration_count, now)}`,
    `  elapsed: ${elapsed === undefined ? "not started yet" : `${renderDuration(elapsed)} (since ${state.started_at})`}`,
    `  tokens: ${renderTokens(runtime)}`,
    `  spend source: ${runtime.spend?.source || "none yet (the companion module or the plugin's status line hands Claude Code's cost figures)"}`,
    ...(extras.records && renderTokenSparkline(extras.records)
      ? [`  tokens per iteration: ${renderTokenSparkline(extras.records.slice(-40))}`]
      : []),
    `  owner session: ${renderOwner(state, sessionId)}`,
    `  state file: ${shown}`,
  ];
  if (runtime.last_api_error)
    lines.push(
      `  last API error: ${runtime.last_api_error} (the turn ended early; ${
        runtime.pause?.reason === "api_errors"
          ? `paused: ${runtime.pause.text}`
          : runtime.api_wait_until
            ? `the loop goes on by itself at ${runtime.api_wait_until}`
            : "the loop goes on with the session"
      })`,
    );
  if (state.verify) lines.push(`  verify: ${state.verify}`);
  if (state.notes_file) lines.push(`  notes file: ${state.notes_file}`);
  if (state.checklist) lines.push(`  checklist: ${state.checklist}, ${extras.checklist ?? "not read"}`);
  lines.push(...renderImprovementStatus(state, runtime, extras.records ?? []));
  lines.push(
    recent.length
      ? `  last decisions:\n${recent.map((r) => `    ${renderDecision(r)}`).join("\n")}`
      : "  last decisions: none yet",
  );
  return lines.join("\n");
}

/** When there is no loop: say so, and what the last one did. */
export function renderNoLoop(shown: string, last: HistoryRecord | undefined): string {
  const lines = [`continuation-loop: no loop is running (no ${shown}).`];
  if (last) lines.push(`  last loop: ${renderDecision(last)}${last.goal ? ` — goal: ${firstLine(last.goal)}` : ""}`);
  lines.push("  start one with /loop-start [options] GOAL");
  return lines.join("\n");
}

/** One short line for Claude Code's statusLine; "" when there is nothing to show. */
export function renderStatusline(state: LoopState, runtime: Runtime, now: number, sessionId?: string): string {
  const parts = [
    `${state.active && runtime.pause?.reason !== "question" ? "loop" : "loop paused"} ${state.iteration_count}/${state.max_iterations}`,
  ];
  const elapsed = elapsedSeconds(state, now);
  if (elapsed !== undefined)
    parts.push(
      state.max_duration_s
        ? `${renderDuration(elapsed)}/${renderDuration(state.max_duration_s)}`
        : renderDuration(elapsed),
    );
  const tokens = runtime.output_tokens;
  if (tokens > 0 || state.max_tokens)
    parts.push(`${fmt(tokens)}${state.max_tokens ? `/${fmt(state.max_tokens)}` : ""} tok`);
  const spent = readLoopSpend(runtime);
  if (spent !== undefined || state.max_cost !== undefined)
    parts.push(`$${(spent ?? 0).toFixed(2)}${state.max_cost !== undefined ? `/$${state.max_cost.toFixed(2)}` : ""}`);
  if (state.metric !== undefined) parts.push(renderMetricBrief(state, runtime));
  if (state.session_id && sessionId && state.session_id !== sessionId) parts.push("other session");
  return `⟳ ${parts.join(" · ")}`;
}

/** One line about another loop of the project, under /loop-status. */
export function renderOtherLoop(name: string, state: LoopState | undefined, sessionId: string | undefined): string {
  if (!state) return `  ${name}: state file invalid (continuation-loop status --name ${name} says why)`;
  const owner = !state.session_id
    ? "unclaimed"
    : state.session_id === sessionId
      ? "this session"
      : `session ${shortId(state.session_id)}`;
  return `  ${name}: ${state.active ? "running" : "paused"}, iteration ${state.iteration_count}/${state.max_iterations}, ${owner} — ${firstLine(state.body, 60)}`;
}
