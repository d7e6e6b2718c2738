import { renderPlainText } from "./plainText.js";

/**
 * Improvement loops (docs/REFERENCE.md "Improvement loops"): the value a `metric` command prints, the
 * `metric_target` it is measured against, which way is better, the best so far and how many Stops
 * in a row did not beat it. Pure.
 */

type Comparison = ">=" | ">" | "<=" | "<";
export interface MetricTarget {
  op: Comparison;
  value: number;
}
export type Direction = "higher" | "lower";

/** A target or a value larger than this is refused: doubles lose whole units beyond it. */
export const MAX_METRIC_MAGNITUDE = 1e15;

/**
 * A number as a metric prints it: an optional sign, digits with an optional fraction (or a fraction
 * alone, `.5`), an optional exponent (`1.5e-3`). A sign counts only where it cannot be a hyphen
 * (not right after a letter, digit, `.` or `)`), so the date 2026-11-24 ends in 24, not -24.
 */
const NUMBER = /(?:(?<![\w.)])[-+])?(?:\d+(?:\.\d+)?|(?<!\d)\.\d+)(?:[eE][-+]?\d+)?/g;

export type MetricReading = { value: number } | { error: string };

/**
 * The last number on a metric's stdout. Thousands separators are refused, not guessed: a last
 * number right after a digit and a `,` or `_` (`1,234`, `1_000`) could be a group or a list, so the
 * reading is an error asking for the number without separators. NaN and Infinity are not numbers;
 * a number beyond ±1e15 (or one that overflows) is refused.
 */
export function parseLastNumber(stdout: string): MetricReading {
  // From the last line up: a metric's figure is usually at the end, after megabytes of log.
  let end = stdout.length;
  while (end > 0) {
    const start = stdout.lastIndexOf("\n", end - 1) + 1;
    // Colour codes hold digits too (`ESC[0m` after the figure), and a redrawn line shows only its last state.
    const line = renderPlainText(stdout.slice(start, end));
    let last: RegExpExecArray | undefined;
    for (const match of line.matchAll(NUMBER)) last = match;
    if (last) {
      const before = line.slice(Math.max(0, last.index - 2), last.index);
      if (/\d[,_]$/.test(before)) {
        return {
          error: `the last number (${line.slice(Math.max(0, last.index - 8), last.index + last[0].length).trim()}) looks grouped by thousands separators; print it without them`,
        };
      }
      const value = Number(last[0]);
      if (!Number.isFinite(value) || Math.abs(value) > MAX_METRIC_MAGNITUDE) {
        return { error: `the last number (${last[0]}) is beyond ±1e15` };
      }
      return { value: Object.is(value, -0) ? 0 : value };
    }
    end = start - 1;
  }
  return { error: "it printed no number on stdout" };
}

const TARGET = /^\s*(>=|<=|>|<)\s*([-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?)\s*$/;

/** `">= 90"`, `"< 0.5"` → the comparison and its number; undefined for anything else. */
export function parseMetricTarget(text: unknown): MetricTarget | undefined {
  if (typeof text !== "string") return undefined;
  const match = TARGET.exec(text);
  if (!match) return undefined;
  const value = Number(match[2]);
  if (!Number.isFinite(value) || Math.abs(value) > MAX_METRIC_MAGNITUDE) return undefined;
  return { op: match[1] as Comparison, value: Object.is(value, -0) ? 0 : value };
}

/** `>=`/`>`: higher is better; `<=`/`<`: lower; no target: higher. */
export const directionOf = (target: MetricTarget | undefined): Direction =>
  target && (target.op === "<=" || target.op === "<") ? "lower" : "higher";

export function reachesTarget(value: number, target: MetricTarget): boolean {
  switch (target.op) {
    case ">=":
      return value >= target.value;
    case ">":
      return value > target.value;
    case "<=":
      return value <= target.value;
    case "<":
      return value < target.value;
  }
}

/** Strictly better than the best so far (none yet: any value is). */
export const beats = (value: number, best: number | null, direction: Direction): boolean =>
  best === null || (direction === "higher" ? value > best : value < best);

/** The metric's bookkeeping, kept in the sidecar (src/core/sidecar.ts). */
export interface MetricRecord {
  /** The command these figures are of: a changed `metric` starts them again ("" before its first Stop). */
  metric_command: string;
  /** The first iteration this command measured (0 before any): the status's sparkline starts there. */
  metric_since: number;
  /** The last value, or null when the last run gave none. */
  metric_last: number | null;
  /** Why the last run gave no value ("" when it gave one). */
  metric_error: string;
  metric_best: number | null;
  /** The iteration whose Stop measured the best value; 0 before any. */
  metric_best_iteration: number;
  /** Consecutive Stops whose metric did not beat the best so far (a failure never does). */
  no_improvement_count: number;
}

export const EMPTY_METRIC: MetricRecord = {
  metric_command: "",
  metric_since: 0,
  metric_last: null,
  metric_error: "",
  metric_best: null,
  metric_best_iteration: 0,
  no_improvement_count: 0,
};

/** The bookkeeping after this Stop's reading, measured at `iteration`. */
export function recordReading(
  previous: MetricRecord,
  reading: MetricReading,
  iteration: number,
  direction: Direction,
): MetricRecord {
  const since = previous.metric_since || iteration;
  if (!("value" in reading)) {
    return {
      ...previous,
      metric_since: since,
      metric_last: null,
      metric_error: reading.error,
      no_improvement_count: previous.no_improvement_count + 1,
    };
  }
  const better = beats(reading.value, previous.metric_best, direction);
  return {
    metric_command: previous.metric_command,
    metric_since: since,
    metric_last: reading.value,
    metric_error: "",
    metric_best: better ? reading.value : previous.metric_best,
    metric_best_iteration: better ? iteration : previous.metric_best_iteration,
    no_improvement_count: better ? 0 : previous.no_improvement_count + 1,
  };
}

/** A value as shown: up to 6 significant digits, no trailing zeros (812, 0.9134, 1.5e-7). */
export function renderMetricValue(value: number | null): string {
  if (value === null) return "none";
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e9 || abs < 1e-4)) return value.toExponential(3).replace(/\.?0+e/, "e");
  return String(Number(value.toPrecision(abs >= 1e6 ? 10 : 6)));
}

export const renderTarget = (target: MetricTarget): string => `${target.op} ${renderMetricValue(target.value)}`;
