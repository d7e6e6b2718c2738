import { LoopError } from "./errors.js";
import type { HistoryRecord } from "./history.js";
import type { LoopState } from "./parseState.js";
import type { StartRequest } from "./parseStartArgs.js";

/**
 * A loop's user fields as a history end record keeps them, so the loop can be started again
 * (docs/REFERENCE.md "History"): the values a state file would hold, durations in seconds.
 */
export function renderRecordFields(state: LoopState): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    max_iterations: state.max_iterations,
    promise_format: state.promise_format,
    completion_threshold: state.completion_threshold,
    verify_timeout: state.verify_timeout,
    stall_limit: state.stall_limit,
    max_api_failures: state.max_api_failures,
    require_todos_done: state.require_todos_done,
    notify: state.notify,
    checkpoints: state.checkpoints,
  };
  if (state.completion_promise.length > 0) fields.completion_promise = state.completion_promise;
  if (state.checklist !== undefined) fields.checklist = state.checklist;
  if (state.max_duration !== undefined) fields.max_duration = state.max_duration;
  if (state.max_tokens !== undefined) fields.max_tokens = state.max_tokens;
  if (state.until !== undefined) fields.until = state.until;
  if (state.verify !== undefined) fields.verify = state.verify;
  if (state.notes_file !== undefined) fields.notes_file = state.notes_file;
  if (state.metric !== undefined) fields.metric = state.metric;
  if (state.metric_target !== undefined)
    fields.metric_target = `${state.metric_target.op} ${state.metric_target.value}`;
  if (state.max_no_improvement !== undefined) fields.max_no_improvement = state.max_no_improvement;
  if (state.metric !== undefined) fields.metric_timeout = state.metric_timeout;
  if (state.scope !== undefined) fields.scope = state.scope.map((p) => p || ".");
  if (state.max_files_changed !== undefined) fields.max_files_changed = state.max_files_changed;
  if (state.fresh_context) fields.fresh_context = true;
  return fields;
}

/** `--again [N] [--force]` (N ≥ 1, default 1), or undefined when the words are something else. */
export function parseAgainArgs(words: readonly string[]): { back: number; force: boolean } | undefined {
  let back = 1;
  let force = false;
  let again = false;
  for (const word of words) {
    if (word === "--again" && !again) again = true;
    else if (word === "--force" && !force) force = true;
    else if (again && /^[1-9][0-9]{0,3}$/.test(word) && back === 1) back = Number(word);
    else return undefined;
  }
  return again ? { back, force } : undefined;
}

/**
 * The start request that runs the `back`-th most recent finished loop again: its goal and fields
 * (docs/REFERENCE.md "History"). Throws LoopError when the history holds no such loop. Pure.
 */
export function decideRestart(
  records: readonly HistoryRecord[],
  back: number,
  force: boolean,
  shown: string,
): StartRequest {
  const finished = records.filter((r) => r.decision === "end" && typeof r.goal === "string" && r.goal.trim() !== "");
  const record = finished[finished.length - back];
  if (!record?.goal) {
    throw new LoopError("USAGE", `the history holds ${finished.length} finished loop(s) with a goal, not ${back}`, {
      file: shown,
      expected: finished.length ? `a number from 1 to ${finished.length}` : "a loop that has ended, then --again",
    });
  }
  return {
    fields: { ...(record.fields ?? {}) },
    template: undefined,
    name: undefined,
    force,
    help: false,
    goal: record.goal.trimEnd(),
  };
}
