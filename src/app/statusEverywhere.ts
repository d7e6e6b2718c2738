// `continuation-loop status --all` from a terminal (docs/REFERENCE.md "Leave it running"): every loop of the project
// and of its git worktrees, each with the background session that runs it and Claude Code's word on that session.
import { relative } from "node:path";
import type { LoopState } from "../core/parseState.js";
import { parseState } from "../core/parseState.js";
import { type LoopEverywhere, renderLoopsEverywhere } from "../core/renderBackground.js";
import type { Runtime } from "../core/sidecar.js";
import { readBackgroundSessions } from "../io/claudeCli.js";
import { findClaude } from "../io/claudeProcess.js";
import { scanLoops } from "../io/listLoops.js";
import { readStateFile } from "../io/readStateFile.js";
import { readPermissionWaitNow } from "../io/readTranscript.js";
import { spawnGit } from "../io/runGit.js";
import { readSidecar } from "../io/sidecarFile.js";
import type { Context } from "./context.js";

/** The project, then the other work trees of its git repository (none outside git). */
function readWorkTrees(root: string, ctx: Context): string[] {
  try {
    const listed = spawnGit({ root, env: ctx.env as NodeJS.ProcessEnv }, ["worktree", "list", "--porcelain"]);
    if (listed.status !== 0) return [root];
    const paths = listed.stdout
      .split("\n")
      .filter((line) => line.startsWith("worktree "))
      .map((line) => line.slice("worktree ".length));
    return [root, ...paths.filter((path) => path !== root)];
  } catch {
    return [root]; // no git: the project alone
  }
}

function readLoop(statePath: string, shown: string, sidecarPath: string): { state?: LoopState; runtime?: Runtime } {
  try {
    const read = readStateFile(statePath, shown);
    if (read.kind !== "found") return {};
    const state = parseState(read.text, shown);
    const runtime = readSidecar(sidecarPath, state);
    // A prompt answered or closed since is no wait: the transcripts say so before the next Stop clears the record.
    const wait = runtime.permission_wait;
    return {
      state,
      runtime: wait && readPermissionWaitNow(wait) !== "open" ? { ...runtime, permission_wait: null } : runtime,
    };
  } catch {
    return {}; // shown as not valid: `status` on that loop says why
  }
}

export function readStatusEverywhere(root: string, ctx: Context): string {
  const claude = findClaude(ctx.env, ctx.cwd);
  const sessions = "path" in claude ? readBackgroundSessions(claude.path, ctx.env, root) : undefined;
  const loops: LoopEverywhere[] = readWorkTrees(root, ctx).flatMap((tree) =>
    scanLoops(tree, ctx.env).loops.map(({ file }) => {
      const { state, runtime } = readLoop(file.statePath, file.shown, file.sidecarPath);
      const where = tree === root ? "." : relative(root, tree).startsWith("..") ? tree : relative(root, tree);
      const session = sessions?.find((s) => state?.session_id !== undefined && s.sessionId === state.session_id);
      return { where, name: file.name, state, runtime, session };
    }),
  );
  return renderLoopsEverywhere(loops, sessions !== undefined);
}
