// A loop's end line in the history when no Stop ends it (an API error's wait, a wait that passed a limit): what
// it used, its limits, and its goal and fields, so it can be started again (docs/REFERENCE.md "History"). Pure.
import type { HistoryRecord } from "./history.js";
import type { LoopState } from "./parseState.js";
import { renderLimits } from "./renderStop.js";
import { renderRecordFields } from "./restartRequest.js";
import { readLoopSpend, type Runtime } from "./sidecar.js";

/** The line that ends the loop for `reason`; `base` says when, where and whose. */
export function renderEndRecord(
  state: LoopState,
  runtime: Runtime,
  base: Pick<HistoryRecord, "time" | "state_file" | "session" | "iteration">,
  reason: string,
  now: number,
): HistoryRecord {
  const spent = readLoopSpend(runtime);
  return {
    ...base,
    decision: "end",
    reason,
    output_tokens: runtime.output_tokens,
    ...(spent !== undefined && { cost_usd: spent }),
    tokens_by_model: runtime.tokens_by_model,
    limits: renderLimits(state, runtime, state.iteration_count, now),
    goal: state.body,
    fields: renderRecordFields(state),
  };
}
