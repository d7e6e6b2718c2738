import {
  directionOf,
  EMPTY_METRIC,
  type MetricReading,
  type MetricRecord,
  reachesTarget,
  recordReading,
  renderMetricValue,
  renderTarget,
} from "./metric.js";
import type { LoopState } from "./parseState.js";
import { decideScope } from "./scope.js";

/** What an improvement loop's Stop found (docs/REFERENCE.md "Improvement loops"); gathered by src/app/gatherStopFacts.ts. */
export interface ImprovementFacts {
  /** This Stop's metric reading, when the loop has a `metric` (not run when the Stop pauses for scope). */
  metric?: MetricReading;
  /** With `scope` or `max_files_changed`: the working tree now and the files changed since the last Stop. */
  scope?: { tree: string; changed: string[]; standIns?: boolean };
}

const pickMetric = (runtime: MetricRecord): MetricRecord => ({
  metric_command: runtime.metric_command,
  metric_since: runtime.metric_since,
  metric_last: runtime.metric_last,
  metric_error: runtime.metric_error,
  metric_best: runtime.metric_best,
  metric_best_iteration: runtime.metric_best_iteration,
  no_improvement_count: runtime.no_improvement_count,
});

/** The metric's bookkeeping after this Stop (unchanged when no metric ran). */
export function decideMetric(state: LoopState, previous: MetricRecord, facts: ImprovementFacts): MetricRecord {
  if (state.metric === undefined) return { ...EMPTY_METRIC };
  // The figures of another command (`metric` fixed or changed by hand) are no baseline for this one.
  const same = previous.metric_command === "" || previous.metric_command === state.metric;
  const base = same ? previous : EMPTY_METRIC;
  const record = facts.metric
    ? recordReading(base, facts.metric, state.iteration_count, directionOf(state.metric_target))
    : pickMetric(base);
  return { ...record, metric_command: state.metric };
}

/** Did this Stop's metric reach `metric_target`? */
export const metricReached = (state: LoopState, reading: MetricReading | undefined): boolean =>
  state.metric_target !== undefined &&
  reading !== undefined &&
  "value" in reading &&
  reachesTarget(reading.value, state.metric_target);

/** "812 (best 790 at iteration 3; target <= 750)": the figures a refusal and the end line give. */
function renderMetricFigures(state: LoopState, record: MetricRecord): string {
  const last =
    record.metric_last === null
      ? `no value (${record.metric_error || "not run yet"})`
      : renderMetricValue(record.metric_last);
  const best =
    record.metric_best === null
      ? "no best yet"
      : `best ${renderMetricValue(record.metric_best)} at iteration ${record.metric_best_iteration}`;
  const target = state.metric_target ? `; target ${renderTarget(state.metric_target)}` : "";
  return `${last} (${best}${target})`;
}

/** Why the metric refuses a due completion: the target not reached this Stop. */
export function refuseMetric(state: LoopState, record: MetricRecord, facts: ImprovementFacts): string | undefined {
  if (state.metric === undefined || state.metric_target === undefined || metricReached(state, facts.metric)) {
    return undefined;
  }
  return `the metric \`${state.metric}\` has not reached its target: it is ${renderMetricFigures(state, record)}`;
}

/** The pause for the user when the iteration changed files outside `scope` or too many; undefined otherwise. */
export function decideScopePause(state: LoopState, facts: ImprovementFacts): string | undefined {
  if (!facts.scope) return undefined;
  return decideScope(facts.scope.changed, state.scope, state.max_files_changed);
}
