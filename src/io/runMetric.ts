import { renderRunStatus } from "../core/decideStop.js";
import { type MetricReading, parseLastNumber } from "../core/metric.js";
import type { Env } from "../core/loopFiles.js";
import { readPlainTail } from "../core/plainText.js";
import { MAX_OUTPUT, runCommand } from "./runVerify.js";

/**
 * Runs the `metric` command (docs/REFERENCE.md "Improvement loops") in the project root: its value is the last
 * number on its stdout. A failure, a timeout, output past the cap or no number is a reading with an
 * error, never an exception.
 */
export function runMetric(
  command: string,
  cwd: string,
  timeoutS: number,
  env: Env,
  packageRoot: string,
): MetricReading {
  const run = runCommand(command, cwd, timeoutS, env, packageRoot);
  if (run.timedOut) return { error: `the metric timed out after ${timeoutS}s` };
  if (run.overflowed)
    return { error: `the metric printed more than ${MAX_OUTPUT / 1024 / 1024} MiB; print only the figure` };
  if (run.exitCode !== 0) {
    const last = readPlainTail(run.output, 1)[0]?.slice(0, 200) ?? "";
    return { error: `the metric ${renderRunStatus(run, timeoutS)}${last ? ` (${last})` : ""}` };
  }
  return parseLastNumber(run.stdout);
}
