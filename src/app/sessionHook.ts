import { chooseSessionLoop, resolveProjectRoot } from "../core/loopFiles.js";
import type { LoopState } from "../core/parseState.js";
import type { Runtime } from "../core/sidecar.js";
import { renderContextAgain } from "../core/renderStart.js";
import { scanLoops } from "../io/listLoops.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { Context } from "./context.js";

/**
 * SessionStart after compaction (docs/REFERENCE.md "Several loops"): Claude works from a summary
 * now, so the loop's marker, goal, iteration and limits are given again at once, and the next Stop
 * sends the full prompt too (also once a paused loop is resumed). Prints nothing for any other start
 * or without a loop; never fails.
 */
export function runSessionHook(input: JsonObject | undefined, ctx: Context): string {
  if (stringField(input, "source") !== "compact") return "";
  const context = giveLoopAgain("compacted", input, ctx);
  return context === undefined
    ? ""
    : `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } })}\n`;
}

/**
 * The session's running loop, given again to a Claude whose conversation lost it (compacted, or rewound: the
 * companion module's continuation after a `/rewind`), and the next Stop sends the full prompt; undefined without
 * such a loop. Never fails: neither a compaction nor a prompt may fail because of the loop.
 */
export function giveLoopAgain(
  what: "compacted" | "rewound",
  input: JsonObject | undefined,
  ctx: Context,
): string | undefined {
  try {
    const sessionId = stringField(input, "session_id");
    const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
    const loop = chooseSessionLoop(scanLoops(root, ctx.env).loops, sessionId);
    if (!loop || loop.owner !== sessionId) return undefined;
    // The sidecar is written through the state file's transaction, like every writer's.
    const { file } = loop;
    const outcome = updateStateFile<{ state: LoopState; runtime: Runtime } | undefined>(file, (snapshot) => {
      if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId) return { result: undefined };
      const { state, runtime } = snapshot;
      return { result: { state, runtime }, runtime: { ...runtime, sent_digest: "" } };
    });
    const found = outcome.kind === "done" ? outcome.result : undefined;
    if (!found?.state.active) return undefined;
    return renderContextAgain(what, found.state, file.shown, ctx.now(), found.runtime);
  } catch {
    return undefined;
  }
}
