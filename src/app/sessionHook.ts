import { chooseSessionLoop, resolveProjectRoot } from "../core/loopFiles.js";
import { parseState } from "../core/parseState.js";
import { renderStartContext } from "../core/renderStart.js";
import { scanLoops } from "../io/listLoops.js";
import { readStateFile } from "../io/readStateFile.js";
import { peekJson, stringField } from "../io/readStdin.js";
import { readSidecar, writeSidecar } from "../io/sidecarFile.js";
import type { Context } from "./context.js";

/**
 * SessionStart after compaction (README "Several loops"): Claude works from a summary
 * now, so the loop's marker, goal, iteration and limits are given again at once, and the next Stop
 * sends the full prompt too (also after a paused loop is resumed). Prints nothing for any other start or without a loop; never fails.
 */
export function runSessionHook(stdin: string, ctx: Context): string {
  try {
    const input = peekJson(stdin);
    if (stringField(input, "source") !== "compact") return "";
    const sessionId = stringField(input, "session_id");
    const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
    const loop = chooseSessionLoop(scanLoops(root, ctx.env).loops, sessionId);
    if (!loop || loop.owner !== sessionId) return "";
    const read = readStateFile(loop.file.statePath, loop.file.shown);
    if (read.kind === "missing") return "";
    const state = parseState(read.text, loop.file.shown);
    // The next Stop sends the full prompt, also for a paused loop that is resumed by hand later.
    writeSidecar(loop.file.sidecarPath, { ...readSidecar(loop.file.sidecarPath, state), sent_digest: "" }, state);
    if (!state.active) return "";
    const context = `[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE] The conversation was compacted; the continuation loop goes on (iteration ${state.iteration_count}/${state.max_iterations}).\n\n${renderStartContext(
      state,
      loop.file.shown,
      ctx.now(),
    )
      .split("\n\n")
      .slice(2)
      .join("\n\n")}`;
    return `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } })}\n`;
  } catch {
    return ""; // a compaction must never fail because of the loop
  }
}
