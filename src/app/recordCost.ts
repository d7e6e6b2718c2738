import type { LoopFile } from "../core/loopFiles.js";
import { recordCostFigure } from "../core/sidecar.js";
import { updateStateFile } from "../io/updateStateFile.js";

/** A status line redraws often and must not stall behind a Stop holding the lock: the next redraw records. */
const STATUS_LINE_LOCK_WAIT_MS = 20;

/**
 * The status line's `cost.total_cost_usd` for the session that owns the loop, recorded in the loop's
 * sidecar (README "Spend limits"): Claude Code's own figure, never an estimate. Written only when it
 * changed, under the state file's lock; the user's file is never touched.
 */
export function recordCost(file: LoopFile, sessionId: string, figure: number): void {
  updateStateFile(
    file,
    (snapshot) => {
      if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId) return { result: undefined };
      if (snapshot.runtime.spend?.figure === figure) return { result: undefined };
      return { result: undefined, runtime: recordCostFigure(snapshot.runtime, figure) };
    },
    { lockWaitMs: STATUS_LINE_LOCK_WAIT_MS },
  );
}
