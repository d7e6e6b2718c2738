import { renderDuration, renderSecondsBrief } from "./duration.js";
import { formatCount } from "./formatCount.js";
import type { ReportModel, ReportRow } from "./reportModel.js";

/** The words and figures the Markdown report and the page share (README "The morning after"). Pure. */

export const DASH = "–";

/** $0.0042, $0.123, $12.34: a cent's fraction shows while spend is small. */
export function renderUsd(usd: number | undefined): string {
  if (usd === undefined) return DASH;
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  if (usd >= 0.01) return `$${usd.toFixed(3)}`;
  return usd === 0 ? "$0" : `$${Number(usd.toPrecision(2))}`;
}

export const renderTokens = (n: number | undefined): string => (n === undefined ? DASH : formatCount(n));

export const renderSeconds = (s: number | undefined): string => (s === undefined ? DASH : renderSecondsBrief(s));

/** Up to six significant digits, no exponent for ordinary values. */
export const renderValue = (n: number | null | undefined): string =>
  n === undefined || n === null ? DASH : String(Number(n.toPrecision(6)));

/** "2026-11-27 02:14:05 UTC" */
export const renderUtc = (ms: number | undefined): string =>
  ms === undefined ? DASH : `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;

/** A row's start: the time of day, with the date when the loop ran across midnight (UTC). */
export function renderStart(ms: number | undefined, loopStart: number | undefined): string {
  if (ms === undefined) return DASH;
  const iso = new Date(ms).toISOString();
  const sameDay = loopStart !== undefined && new Date(loopStart).toISOString().slice(0, 10) === iso.slice(0, 10);
  return sameDay ? iso.slice(11, 19) : `${iso.slice(5, 10)} ${iso.slice(11, 19)}`;
}

export function renderMetricCell(row: ReportRow): string {
  if (row.metric === undefined) return row.metricError ? `no value (${row.metricError})` : DASH;
  return row.metric === null ? `no value${row.metricError ? ` (${row.metricError})` : ""}` : renderValue(row.metric);
}

/** "completed — Claude wrote the promise "DONE"" */
export const renderOutcome = (model: ReportModel): string =>
  `${model.outcome}${model.because ? ` — ${model.because}` : ""}`;

export function renderIterations(model: ReportModel): string {
  return model.maxIterations ? `${model.iterations} of ${model.maxIterations}` : String(model.iterations);
}

export const renderElapsed = (model: ReportModel): string =>
  model.elapsedS === undefined ? DASH : renderDuration(model.elapsedS);

/** "0.82 at iteration 7, target >= 0.9", or undefined for a loop without a metric. */
export function renderMetricSummary(model: ReportModel): string | undefined {
  const m = model.metric;
  if (!m) return undefined;
  const best =
    m.best === undefined
      ? "no value yet"
      : `${renderValue(m.best)}${m.bestIteration ? ` at iteration ${m.bestIteration}` : ""}`;
  return `best ${best}; target ${m.target ?? "none"}`;
}

/** Short marks for event rows, shared by the table and the charts' legends. */
export const EVENT_MARK: Record<ReportRow["kind"], string> = {
  iteration: "",
  pause: "pause",
  hold: "background",
  wait: "wait",
  resume: "resume",
  api_error: "API error",
  end: "end",
  other: "event",
};
