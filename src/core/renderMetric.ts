import type { HistoryRecord } from "./history.js";
import { directionOf, type MetricRecord, renderMetricValue, renderTarget } from "./metric.js";
import type { LoopState } from "./parseState.js";

// What an improvement loop shows (docs/REFERENCE.md "Improvement loops"): the prompt's line, the reminder's
// part, the end line's part and /loop-status's sparkline.

const better = (state: LoopState) => `${directionOf(state.metric_target)} is better`;

/** "last 812 · best 790 at iteration 3 · target <= 750 · 2/5 stops without improvement". */
function renderMetricParts(state: LoopState, record: MetricRecord): string {
  const last =
    record.metric_last === null
      ? `last: no value — ${record.metric_error || "not run yet"}`
      : `last ${renderMetricValue(record.metric_last)}`;
  const best =
    record.metric_best === null
      ? "no best yet"
      : `best ${renderMetricValue(record.metric_best)} at iteration ${record.metric_best_iteration}`;
  const parts = [last, best, state.metric_target ? `target ${renderTarget(state.metric_target)}` : "no target"];
  if (state.max_no_improvement !== undefined) {
    parts.push(`${record.no_improvement_count}/${state.max_no_improvement} stops without improvement`);
  }
  return parts.join(" · ");
}

/** The continuation prompt's section: last value, best and at which iteration, target, the no-improvement count. */
export function renderMetricSection(state: LoopState, record: MetricRecord): string | undefined {
  if (state.metric === undefined) return undefined;
  const reach = state.metric_target
    ? " Reaching the target completes the loop; until then the completion phrase is refused."
    : "";
  return `Metric (\`${state.metric}\`, ${better(state)}): ${renderMetricParts(state, record)}.${reach}`;
}

/**
 * The reminder's part: " Metric 812 (best 790 at 3, target <= 750)."; a Stop that got no value says why, in a few
 * words (" Metric no value: the metric exited with status 1 (…) (best 790 at 3).").
 */
export function renderMetricReminder(state: LoopState, record: MetricRecord): string {
  if (state.metric === undefined) return "";
  // The error is one line (src/io/runMetric.ts), cut short: the reminder stays about three screen rows.
  const error = record.metric_error.length > 100 ? `${record.metric_error.slice(0, 99)}…` : record.metric_error;
  const why = error ? `: ${error}` : "";
  const last = record.metric_last === null ? `no value${why}` : renderMetricValue(record.metric_last);
  const best =
    record.metric_best === null
      ? ""
      : `best ${renderMetricValue(record.metric_best)} at ${record.metric_best_iteration}`;
  const target = state.metric_target ? `target ${renderTarget(state.metric_target)}` : "";
  const extra = [best, target].filter(Boolean).join(", ");
  return ` Metric ${last}${extra ? ` (${extra})` : ""}.`;
}

/** The status line's part: "metric 71.5 (>= 90)". */
export function renderMetricBrief(state: LoopState, record: MetricRecord): string {
  const target = state.metric_target ? ` (${renderTarget(state.metric_target)})` : "";
  return `metric ${record.metric_last === null ? "–" : renderMetricValue(record.metric_last)}${target}`;
}

/** The end line's part: " Best metric 790 at iteration 3 (target <= 750)." */
export function renderMetricEnd(state: LoopState, record: MetricRecord): string {
  if (state.metric === undefined) return "";
  if (record.metric_best === null) return ` The metric gave no value (${record.metric_error || "never run"}).`;
  const target = state.metric_target ? ` (target ${renderTarget(state.metric_target)})` : "";
  return ` Best metric ${renderMetricValue(record.metric_best)} at iteration ${record.metric_best_iteration}${target}.`;
}

const BARS = "▁▂▃▄▅▆▇█";

/**
 * The metric of each Stop from the loop's history, as a sparkline with the best bar in brackets
 * and `×` for a Stop that gave no value: "▁▃[█]▆×▅".
 */
export function renderMetricSparkline(records: HistoryRecord[], best: number | null): string {
  const values = records.filter((r) => "metric" in r).map((r) => (typeof r.metric === "number" ? r.metric : null));
  const numbers = values.filter((v): v is number => v !== null);
  if (values.length === 0) return "";
  const low = Math.min(...numbers);
  const span = Math.max(...numbers) - low;
  let marked = false;
  return values
    .map((v) => {
      if (v === null) return "×";
      const bar = BARS[span === 0 ? 3 : Math.round(((v - low) / span) * (BARS.length - 1))] ?? "▁";
      if (!marked && v === best) {
        marked = true;
        return `[${bar}]`;
      }
      return bar;
    })
    .join("");
}

/** /loop-status's metric row: "metric: `npm run -s bench` ▁▃[█] (higher is better): last 812 · best …". */
export function renderMetricStatus(state: LoopState, record: MetricRecord, records: HistoryRecord[]): string {
  // The values of this command only: a `metric` changed by hand starts the figures, and the line, again.
  const measured = records.filter((r) => (r.iteration ?? 0) >= record.metric_since);
  const spark = renderMetricSparkline(measured.slice(-30), record.metric_best);
  return `metric: \`${state.metric}\`${spark ? ` ${spark}` : ""} (${better(state)}): ${renderMetricParts(state, record)}`;
}
