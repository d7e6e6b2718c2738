import { renderIsoTime } from "../core/isoTime.js";
import { resolveProjectRoot } from "../core/loopFiles.js";
import { tryAppendHistory } from "../io/history.js";
import { scanLoops } from "../io/listLoops.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { readSidecar, writeSidecar } from "../io/sidecarFile.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { Context } from "./context.js";

/**
 * StopFailure (README "Several loops"): a turn of the session's loop ended on an API error (rate or
 * usage limit, overload…) instead of a Stop. It is recorded in the history and the sidecar, so
 * /loop-status says why the loop went quiet, and the next Stop does not count it as an unchanged
 * turn. The loop itself goes on when the session does. Prints nothing.
 */
export function recordApiError(input: JsonObject | undefined, ctx: Context): void {
  const sessionId = stringField(input, "session_id");
  if (!sessionId) return;
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const own = scanLoops(root, ctx.env).loops.find((loop) => loop.owner === sessionId);
  if (!own) return;
  const { file } = own;
  const kind = stringField(input, "error") || "unknown";
  const time = renderIsoTime(ctx.now());
  updateStateFile(file.statePath, file.shown, (snapshot) => {
    if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId) return { result: undefined };
    const { state } = snapshot;
    const runtime = readSidecar(file.sidecarPath, state);
    return {
      result: undefined,
      onCommit: () => {
        writeSidecar(
          file.sidecarPath,
          {
            ...runtime,
            last_api_error: `${kind} at ${time}`,
            api_errors_since_stop: runtime.api_errors_since_stop + 1,
          },
          state,
        );
        tryAppendHistory(file.historyPath, {
          time,
          state_file: file.shown,
          session: sessionId,
          iteration: state.iteration_count,
          decision: "api_error",
          reason: kind,
        });
      },
    };
  });
}
