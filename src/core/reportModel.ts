import { renderWaitingFor } from "./background.js";
import { renderPermissionWait } from "./permissionWait.js";
import { FIELDS } from "./fields.js";
import { type HistoryRecord, readRefusedToolsOf } from "./history.js";
import { renderSecondsBrief } from "./duration.js";

/**
 * The facts of one loop's report (README "The morning after"), drawn from its history records only.
 * The Markdown and the HTML page render the same model. Pure: the history may hold records of older
 * and newer versions, so unknown decisions become rows of their own and missing fields stay unknown.
 */

/** One row of the report's table: an iteration (a Stop that went on or ended the loop) or an event. */
export interface ReportRow {
  kind: "iteration" | "pause" | "hold" | "wait" | "resume" | "api_error" | "end" | "other";
  iteration: number | undefined;
  /** ms since the epoch: when the iteration started (events: when they happened). */
  start: number | undefined;
  durationS: number | undefined;
  tokens: number | undefined;
  spendUsd: number | undefined;
  metric: number | null | undefined;
  metricError: string | undefined;
  /** The loop's best metric so far, as its Stops kept it (`followBest`). */
  metricBest: number | undefined;
  /** The decision as users read it: `continue`, `end: completed`, `wait 5m (rate_limit)`… */
  decision: string;
  files: number | undefined;
  reply: string | undefined;
}

export interface ReportModel {
  stateFile: string;
  goal: string | undefined;
  /** `completed`, `max_iterations`… for a finished loop; `running`, `paused` or `waiting` otherwise. */
  outcome: string;
  ended: boolean;
  /** Why, in a few words: the promise, a refusal, Claude's question. */
  because: string | undefined;
  iterations: number;
  maxIterations: number | undefined;
  start: number | undefined;
  end: number | undefined;
  /** The time the loop ran, its steps in file order: a clock set back adds no time, nor takes any. */
  elapsedS: number | undefined;
  outputTokens: number | undefined;
  spendUsd: number | undefined;
  metric: { best: number | undefined; bestIteration: number | undefined; target: string | undefined } | undefined;
  rows: ReportRow[];
}

const timeOf = (r: HistoryRecord): number => (typeof r.time === "string" ? Date.parse(r.time) : Number.NaN);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * The highest and lowest of many values, without spreading them into Math.max's arguments: a huge history
 * holds more records than a call takes arguments. undefined for none.
 */
export const highest = (values: readonly number[]): number | undefined =>
  values.length ? values.reduce((a, b) => Math.max(a, b)) : undefined;
export const lowest = (values: readonly number[]): number | undefined =>
  values.length ? values.reduce((a, b) => Math.min(a, b)) : undefined;

/** End reasons recorded outside a Stop: no turn of Claude's ended there. */
const ENDS_WITHOUT_STOP = new Set(["stopped", "vanished"]);

/**
 * The records of the loop to report: the named state file's, else the file of the history's last
 * loop record; from the record after that file's previous end up to its last end, or to the history's
 * end when the loop still runs. Empty when the history holds no such loop.
 */
export function selectLoopRecords(records: readonly HistoryRecord[], stateFile?: string): HistoryRecord[] {
  const loops = records.filter((r) => typeof r.state_file === "string" && r.decision !== "refused");
  const file = stateFile ?? loops.at(-1)?.state_file;
  const own = loops.filter((r) => r.state_file === file);
  const last = own.length - 1;
  let first = last;
  while (first > 0 && own[first - 1]?.decision !== "end") first--;
  return last < 0 ? [] : own.slice(first, last + 1);
}

function isStopEnd(r: HistoryRecord, previous: HistoryRecord | undefined): boolean {
  if (r.duration_s !== undefined || r.reply_line !== undefined) return true;
  return !ENDS_WITHOUT_STOP.has(r.reason ?? "") && previous?.decision !== "api_error";
}

function describeWait(r: HistoryRecord): string {
  const s = num(r.wait_s);
  // As the row's duration cell writes it: a wait of 119 s reads `wait 1m 59s`, not `wait 2m`.
  const long = s === undefined ? "" : ` ${renderSecondsBrief(s)}`;
  const why = [
    r.reason,
    r.basis === "reset" ? "until the reset" : undefined,
    r.failures ? `error ${r.failures} in a row` : undefined,
  ];
  return `wait${long} (${why.filter(Boolean).join(", ")})`;
}

function describePause(r: HistoryRecord): string {
  const why = r.reason ?? "paused";
  const detail = text(r.question) ?? text(r.scope);
  return detail ? `pause: ${why}: ${detail}` : `pause: ${why}`;
}

/** "waiting for 1 background task (build)": a hold for background work (docs/REFERENCE.md "Background work"). */
const describeHold = (r: HistoryRecord): string =>
  Array.isArray(r.tasks) ? renderWaitingFor(r.tasks) : "waiting for background tasks";

function describeDecision(r: HistoryRecord, kind: ReportRow["kind"]): string {
  const refused = text(r.refusal) ? ` (completion refused: ${r.refusal})` : "";
  // Tools Claude Code's permission check refused in the turn: nobody answered, or the person said no.
  const tools = readRefusedToolsOf(r);
  const denied = tools.length ? ` (tools refused: ${tools.join(", ")})` : "";
  switch (kind) {
    case "iteration":
      return r.decision === "end"
        ? `end: ${r.reason ?? "?"}${r.promise ? ` (promise "${r.promise}")` : ""}${denied}`
        : `continue${refused}${denied}`;
    case "pause":
      return describePause(r);
    case "hold":
      return r.decision === "waiting_plan" ? "waiting: plan mode" : describeHold(r);
    case "wait":
      return describeWait(r);
    case "resume":
      return `resume (${r.reason ?? "?"})`;
    case "api_error":
      return `API error: ${r.reason ?? "unknown"}`;
    case "end":
      return `end: ${r.reason ?? "?"}`;
    default:
      if (r.decision === "waiting_permission") return renderPermissionWait({ tool: r.tool ?? "a tool" });
      if (r.decision === "waiting_plan") return "waiting: plan mode";
      return `${String(r.decision)}${r.reason ? `: ${r.reason}` : ""}`;
  }
}

function kindOf(r: HistoryRecord, previous: HistoryRecord | undefined): ReportRow["kind"] {
  const decision: string = r.decision;
  if (decision === "continue") return "iteration";
  if (decision === "end") return isStopEnd(r, previous) ? "iteration" : "end";
  if (decision === "pause" || decision === "wait" || decision === "resume" || decision === "api_error") return decision;
  if (decision === "waiting_background" || decision === "waiting_plan") return "hold";
  return "other";
}

/** Which way the metric improves: a target `<=`/`<` means lower is better (docs/REFERENCE.md "Improvement loops"). */
const lowerIsBetter = (target: string | undefined) => target !== undefined && /^\s*</.test(target);

type Best = { value: number; iteration: number | undefined } | undefined;

/**
 * The best metric after each record, as the loop kept it: a Stop records the iteration of its best
 * (`metric_best_iteration`), which starts again at a `metric` command changed by hand, so the old command's
 * values are no best of the new one's. Records of versions that kept no best iteration: the best value.
 */
function followBest(records: readonly HistoryRecord[], lower: boolean): Best[] {
  let best: Best;
  let kept = false;
  return records.map((r) => {
    if (r.metric === undefined) return best;
    const value = num(r.metric);
    const iteration = num(r.iteration);
    const recorded = num(r.metric_best_iteration);
    // A Stop that names no best after ones that did: a new command, with no value yet.
    if (recorded === undefined && kept) best = undefined;
    kept ||= recorded !== undefined;
    if (value === undefined) return best;
    const beats = best === undefined || (lower ? value < best.value : value > best.value);
    const again = recorded === iteration && best?.iteration !== iteration;
    if (recorded === undefined ? beats : again || (recorded === iteration && beats)) best = { value, iteration };
    return best;
  });
}

/** Rows in history order; per-iteration tokens and spend are the differences of the loop's running totals. */
function buildRows(records: readonly HistoryRecord[], bests: readonly Best[]): ReportRow[] {
  let tokensSoFar = 0;
  let spendSoFar = 0;
  let previousTime: number | undefined;
  return records.map((r, i) => {
    const previous = records[i - 1];
    const kind = kindOf(r, previous);
    const at = timeOf(r);
    const tally = num(r.output_tokens);
    const spend = num(r.cost_usd);
    const tokens = tally === undefined ? undefined : Math.max(0, tally - tokensSoFar);
    const spent = spend === undefined ? undefined : Math.max(0, spend - spendSoFar);
    if (tally !== undefined) tokensSoFar = Math.max(tokensSoFar, tally);
    if (spend !== undefined) spendSoFar = Math.max(spendSoFar, spend);
    // A hold ends a turn of Claude's too: its duration, tokens and reply are that turn's.
    const turn = kind === "iteration" || ((kind === "pause" || kind === "hold") && r.reply_line !== undefined);
    const durationS =
      num(r.duration_s) ??
      (turn && previousTime !== undefined && Number.isFinite(at) ? (at - previousTime) / 1000 : undefined);
    const start = Number.isFinite(at) ? (turn && durationS !== undefined ? at - durationS * 1000 : at) : undefined;
    if (Number.isFinite(at)) previousTime = at;
    return {
      kind,
      iteration: num(r.iteration),
      start,
      durationS: turn ? durationS : kind === "wait" ? num(r.wait_s) : undefined,
      tokens: turn || (tokens ?? 0) > 0 ? tokens : undefined,
      spendUsd: turn || (spent ?? 0) > 0 ? spent : undefined,
      metric: r.metric === null ? null : num(r.metric),
      metricError: text(r.metric_error),
      metricBest: bests[i]?.value,
      decision: describeDecision(r, kind),
      files: num(r.files_changed),
      reply: text(r.reply_line),
    };
  });
}

function summariseMetric(
  records: readonly HistoryRecord[],
  bests: readonly Best[],
  target: string | undefined,
): ReportModel["metric"] {
  if (!records.some((r) => r.metric !== undefined) && target === undefined) return undefined;
  const best = bests.at(-1);
  return { best: best?.value, bestIteration: best?.iteration, target };
}

function describeOutcome(last: HistoryRecord): { outcome: string; because: string | undefined } {
  const decision: string = last.decision;
  if (decision === "end") {
    const because = last.promise
      ? `Claude wrote the promise "${last.promise}"`
      : last.reason === "stopped"
        ? "stopped by the user"
        : text(last.refusal);
    return { outcome: last.reason ?? "ended", because };
  }
  if (decision === "pause") return { outcome: "paused", because: describePause(last).replace(/^pause: /, "") };
  if (decision === "wait") return { outcome: "waiting", because: describeWait(last) };
  if (decision === "waiting_background") return { outcome: "waiting", because: describeHold(last) };
  if (decision === "waiting_permission")
    return { outcome: "waiting", because: renderPermissionWait({ tool: last.tool ?? "a tool" }) };
  if (decision === "waiting_plan") return { outcome: "waiting", because: "the session is in plan mode" };
  return { outcome: "running", because: undefined };
}

/** The sum of the forward steps from the first time on (file order): the backward step of a clock set back is left out. */
function sumForward(times: readonly number[]): number | undefined {
  if (times.length === 0) return undefined;
  let total = 0;
  for (let i = 1; i < times.length; i++) total += Math.max(0, (times[i] as number) - (times[i - 1] as number));
  return total / 1000;
}

/** A loop's records (see `selectLoopRecords`) → the report's facts. */
export function buildReport(records: readonly HistoryRecord[]): ReportModel {
  const last = records.at(-1);
  const withGoal = [...records].reverse().find((r) => typeof r.goal === "string");
  const fields = (withGoal?.fields ?? {}) as Record<string, unknown>;
  const target = text(fields.metric_target);
  const bests = followBest(records, lowerIsBetter(target));
  const rows = buildRows(records, bests);
  const iterations = highest([0, ...records.map((r) => num(r.iteration) ?? 0)]) ?? 0;
  const tokens = records.map((r) => num(r.output_tokens)).filter((n) => n !== undefined);
  const spends = records.map((r) => num(r.cost_usd)).filter((n) => n !== undefined);
  const times = rows.map((r) => r.start).filter((n) => n !== undefined);
  const ends = records.map(timeOf).filter(Number.isFinite);
  const { outcome, because } = last ? describeOutcome(last) : { outcome: "running", because: undefined };
  return {
    stateFile: last?.state_file ?? "",
    goal: withGoal?.goal,
    outcome,
    ended: last?.decision === "end",
    because,
    iterations,
    // A record keeps the fields as written: one that leaves the limit out ran to its default.
    maxIterations: num(fields.max_iterations) ?? (withGoal?.fields ? FIELDS.max_iterations.default : undefined),
    start: lowest(times),
    end: highest(ends),
    elapsedS: sumForward([...times.slice(0, 1), ...ends]),
    outputTokens: highest(tokens),
    spendUsd: highest(spends),
    metric: summariseMetric(records, bests, target),
    rows,
  };
}
