import { chooseSessionLoop, resolveProjectRoot } from "../core/loopFiles.js";
import type { LoopState } from "../core/parseState.js";
import type { Runtime } from "../core/sidecar.js";
import { renderStartContext } from "../core/renderStart.js";
import { scanLoops } from "../io/listLoops.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { Context } from "./context.js";
import { LOOP_MARKER } from "../core/protocol.js";

/**
 * SessionStart after compaction (docs/REFERENCE.md "Several loops"): Claude works from a summary
 * now, so the loop's marker, goal, iteration and limits are given again at once, and the next Stop
 * sends the full prompt too (also once a paused loop is resumed). Prints nothing for any other start
 * or without a loop; never fails.
 */
export function runSessionHook(input: JsonObject | undefined, ctx: Context): string {
  try {
    if (stringField(input, "source") !== "compact") return "";
    const sessionId = stringField(input, "session_id");
    const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
    const loop = chooseSessionLoop(scanLoops(root, ctx.env).loops, sessionId);
    if (!loop || loop.owner !== sessionId) return "";
    // The next Stop sends the full prompt, also for a paused loop resumed by hand later: the sidecar
    // is written through the state file's transaction, like every writer's.
    const { file } = loop;
    const outcome = updateStateFile<{ state: LoopState; runtime: Runtime } | undefined>(file, (snapshot) => {
      if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId) return { result: undefined };
      const { state, runtime } = snapshot;
      return { result: { state, runtime }, runtime: { ...runtime, sent_digest: "" } };
    });
    const found = outcome.kind === "done" ? outcome.result : undefined;
    if (!found?.state.active) return "";
    const { state, runtime } = found;
    const context = `${LOOP_MARKER} The conversation was compacted; the continuation loop goes on (iteration ${state.iteration_count}/${state.max_iterations}).\n\n${renderStartContext(
      state,
      file.shown,
      ctx.now(),
      runtime,
    )
      .split("\n\n")
      .slice(2)
      .join("\n\n")}`;
    return `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } })}\n`;
  } catch {
    return ""; // a compaction must never fail because of the loop
  }
}
