import type { LoopFile } from "../core/loopFiles.js";
import { recordCostFigure } from "../core/sidecar.js";
import { readViewChecklist, writeSidecarAndView } from "../io/loopViewFile.js";
import { readSidecar } from "../io/sidecarFile.js";
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
    file.statePath,
    file.shown,
    (snapshot) => {
      if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId) return { result: undefined };
      const { state, text } = snapshot;
      const runtime = readSidecar(file.sidecarPath, state);
      if (runtime.spend?.figure === figure) return { result: undefined };
      const recorded = recordCostFigure(runtime, figure);
      return {
        result: undefined,
        // The view too: a status line records figures all turn long, and the companion module must not
        // run the helper for each of them.
        onCommit: () => {
          writeSidecarAndView(file, text, state, recorded, state, readViewChecklist(file.viewPath));
        },
      };
    },
    STATUS_LINE_LOCK_WAIT_MS,
  );
}
