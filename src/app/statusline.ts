import { renderWaitingFor } from "../core/background.js";
import { chooseSessionLoop, resolveProjectRoot } from "../core/loopFiles.js";
import { parseState } from "../core/parseState.js";
import { renderStatusline } from "../core/renderStatusline.js";
import { scanLoops } from "../io/listLoops.js";
import { readStateFile } from "../io/readStateFile.js";
import { parseJsonObject, stringField } from "../core/hookStdin.js";
import { readSidecar } from "../io/sidecarFile.js";
import type { CommandCall } from "./commandTable.js";
import { EXIT } from "./context.js";
import { recordCost } from "./recordCost.js";
import { readHeldRuntime } from "./readStatus.js";

/** One line for Claude Code's statusLine: this session's loop. Prints nothing without one; never fails. */
export function runStatusline({ ctx }: CommandCall): number {
  try {
    const input = parseJsonObject(ctx.readStdin());
    const workspace = input?.workspace as Record<string, unknown> | undefined;
    const dir =
      stringField(workspace, "project_dir") || stringField(input, "cwd") || stringField(workspace, "current_dir");
    const sessionId = stringField(input, "session_id") || undefined;
    const root = resolveProjectRoot(dir ? { ...ctx.env, CLAUDE_PROJECT_DIR: dir } : ctx.env, undefined, ctx.cwd);
    const loop = chooseSessionLoop(scanLoops(root, ctx.env).loops, sessionId);
    if (!loop) return EXIT.ok;
    // Claude Code's own cost figure for this session: the loop's spend is measured from it (README "Spend limits").
    const figure = (input?.cost as Record<string, unknown> | undefined)?.total_cost_usd;
    if (sessionId && loop.owner === sessionId && typeof figure === "number" && Number.isFinite(figure) && figure >= 0)
      recordCost(loop.file, sessionId, figure);
    const read = readStateFile(loop.file.statePath, loop.file.shown);
    if (read.kind === "missing") return EXIT.ok;
    const state = parseState(read.text, loop.file.shown);
    // A wait for background work, said here too (on the command path there is no band to say it), until a held
    // task's notification starts a turn or the turn after the hold is interrupted: the transcript's end says which.
    const { runtime } = readHeldRuntime(readSidecar(loop.file.sidecarPath, state));
    const hold = runtime.background_hold
      ? ` · ${renderWaitingFor(runtime.background_hold.tasks, 48)}`
      : runtime.plan_hold
        ? " · waiting: plan mode"
        : "";
    ctx.out(`${renderStatusline(state, runtime, ctx.now(), sessionId)}${hold}\n`);
  } catch {
    ctx.out("⟳ loop: state file invalid (run /loop-status)\n");
  }
  return EXIT.ok;
}
