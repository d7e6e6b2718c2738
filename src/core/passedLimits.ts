// The limits of time and spend, which a Stop and the end of a wait judge alike (docs/REFERENCE.md "How a loop
// ends", "Background work"). Pure.
import { elapsedSeconds } from "./duration.js";
import type { LoopState } from "./parseState.js";
import { readLoopSpend, type Runtime } from "./sidecar.js";

/**
 * The limit of time or spend the loop has reached, if any (time first): a Stop ends the loop on it, and so does the
 * end of a wait, since both limits hold while the loop waits.
 */
export function decidePassedTimeOrSpend(
  state: LoopState,
  runtime: Runtime,
  now: number,
): "max_duration" | "max_cost" | undefined {
  const elapsed = elapsedSeconds(state, now);
  if (state.max_duration !== undefined && elapsed !== undefined && elapsed >= state.max_duration) return "max_duration";
  const spent = readLoopSpend(runtime);
  if (state.max_cost !== undefined && spent !== undefined && spent >= state.max_cost) return "max_cost";
  return undefined;
}
