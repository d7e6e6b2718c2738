import { resolveProjectRoot } from "../core/loopFiles.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { tryAppendHistory } from "../io/history.js";
import { scanLoops } from "../io/listLoops.js";
import { readSidecar, writeSidecar } from "../io/sidecarFile.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { Context } from "./context.js";
import type { CommandAnswer } from "./slashCommands.js";

const DROPPED: CommandAnswer = {
  block:
    "continuation-loop: the loop was stopped or paused during the wait after an API error, so it does not go on; /loop-resume takes it up again.",
};

/**
 * The companion module's prompt after a wait for an API error (docs/REFERENCE.md "Going on after an API error"): the loop goes on,
 * recorded as a `resume` in the history. Should the loop have been stopped or paused in the moment between
 * the module's own check and this prompt, the prompt is refused: a stopped or paused loop never goes on.
 */
export function recordApiResume(input: JsonObject, ctx: Context): CommandAnswer | undefined {
  const sessionId = stringField(input, "session_id");
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const own = sessionId ? scanLoops(root, ctx.env).loops.find((loop) => loop.owner === sessionId) : undefined;
  if (!own) return DROPPED;
  const { file } = own;
  const outcome = updateStateFile<CommandAnswer | undefined>(file.statePath, file.shown, (snapshot) => {
    if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId) return { result: DROPPED };
    const { state } = snapshot;
    const runtime = readSidecar(file.sidecarPath, state);
    if (!state.active || runtime.pause?.reason === "question") return { result: DROPPED };
    return {
      result: undefined,
      onCommit: () => {
        writeSidecar(file.sidecarPath, { ...runtime, api_wait_until: "" }, state);
        tryAppendHistory(file.historyPath, {
          time: new Date(ctx.now()).toISOString(),
          state_file: file.shown,
          session: sessionId,
          iteration: state.iteration_count,
          decision: "resume",
          reason: "api_wait",
          failures: runtime.api_errors_since_stop,
        });
      },
    };
  });
  return outcome.kind === "done" ? outcome.result : DROPPED;
}
