// `continuation-loop status --all` from a terminal (docs/REFERENCE.md "Leave it running"): every loop of the project
// and of its git worktrees, each with the background session that runs it and Claude Code's word on that session.
import { realpathSync } from "node:fs";
import { join, relative } from "node:path";
import type { LoopState } from "../core/parseState.js";
import { parseState } from "../core/parseState.js";
import { type EndedLoop, type LoopEverywhere, renderLoopsEverywhere } from "../core/renderBackground.js";
import { loopFileAt } from "../core/loopFiles.js";
import type { Runtime } from "../core/sidecar.js";
import { readBackgroundSessions } from "../io/claudeCli.js";
import { readHistory } from "../io/history.js";
import { findClaude } from "../io/claudeProcess.js";
import { scanLoops } from "../io/listLoops.js";
import { readStateSettled } from "../io/readStateFile.js";
import { readPermissionWaitNow } from "../io/readTranscript.js";
import { readRevParse, spawnGit } from "../io/runGit.js";
import { readSidecar } from "../io/sidecarFile.js";
import type { Context } from "./context.js";

/** A folder's real path (symlinks resolved), so that one folder reached two ways is one. */
function readRealPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The project, then the same project in the other work trees of its git repository (none outside git): the folder
 * at the project's place in each, so that a project in a folder of a larger repository finds its own loops there.
 */
function readWorkTrees(root: string, ctx: Context): string[] {
  try {
    const repo = { root, env: ctx.env as NodeJS.ProcessEnv };
    const here = readRevParse(repo, [["--show-toplevel"], ["--show-prefix"]]);
    // -z (git 2.36+): a folder named with a line break is one path; an older git lists one a line.
    let listed = spawnGit(repo, ["worktree", "list", "--porcelain", "-z"]);
    if (listed.status !== 0) listed = spawnGit(repo, ["worktree", "list", "--porcelain"]);
    if (here.status !== 0 || listed.status !== 0) return [root];
    const [top = root, prefix = ""] = here.answers;
    const own = readRealPath(top);
    const others = listed.stdout
      .split(listed.stdout.includes("\0") ? "\0" : "\n")
      .filter((line) => line.startsWith("worktree "))
      .map((line) => line.slice("worktree ".length))
      .filter((path) => readRealPath(path) !== own);
    return [root, ...others.map((path) => join(path, prefix.replace(/\/$/, "")))];
  } catch {
    return [root]; // no git: the project alone
  }
}

function readLoop(statePath: string, shown: string, sidecarPath: string): { state?: LoopState; runtime?: Runtime } {
  try {
    const state = readStateSettled(statePath, shown, sidecarPath, (text) => parseState(text, shown));
    if (!state) return {};
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

/** A worktree's last loop, when it has ended: what a loop left running overnight in that worktree did. */
function readEndedLoop(tree: string, where: string): EndedLoop | undefined {
  const last = readHistory(loopFileAt(tree, "default").historyPath).at(-1);
  return last?.decision === "end" ? { where, record: last } : undefined;
}

export function readStatusEverywhere(root: string, ctx: Context): string {
  const claude = findClaude(ctx.env, ctx.cwd);
  const sessions = "path" in claude ? readBackgroundSessions(claude.path, ctx.env, root) : undefined;
  const loops: LoopEverywhere[] = [];
  const ended: EndedLoop[] = [];
  for (const tree of readWorkTrees(root, ctx)) {
    const where = tree === root ? "." : relative(root, tree).startsWith("..") ? tree : relative(root, tree);
    const found = scanLoops(tree, ctx.env).loops;
    for (const { file } of found) {
      const { state, runtime } = readLoop(file.statePath, file.shown, file.sidecarPath);
      const session = sessions?.find((s) => state?.session_id !== undefined && s.sessionId === state.session_id);
      loops.push({ where, name: file.name, state, runtime, session });
    }
    const last = tree !== root && found.length === 0 ? readEndedLoop(tree, where) : undefined;
    if (last) ended.push(last);
  }
  return renderLoopsEverywhere(loops, sessions !== undefined, ended);
}
