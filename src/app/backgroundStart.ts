// `continuation-loop start --bg [--worktree NAME] … GOAL [-- CLAUDE_ARGS…]` (docs/REFERENCE.md "Leave it running"):
// the loop in a Claude Code background session (`claude --bg`), on Claude Code's own engine. The loop's file names
// an owner that is no session's until the session the helper started takes it at its first prompt.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { LoopError } from "../core/errors.js";
import { editFrontmatter } from "../core/frontmatter.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { type LoopFile, resolveProjectRoot } from "../core/loopFiles.js";
import type { StartRequest } from "../core/parseStartArgs.js";
import { parseState } from "../core/parseState.js";
import { BACKGROUND_START, parseTakeOver, renderTakeOverPrompt } from "../core/protocol.js";
import { renderBackgroundStarted, renderPermissionNote } from "../core/renderBackground.js";
import { runClaudeCommand } from "../io/claudeCli.js";
import { findClaude } from "../io/claudeProcess.js";
import { scanLoops } from "../io/listLoops.js";
import { readStateFile } from "../io/readStateFile.js";
import { readGitRepo, spawnGit } from "../io/runGit.js";
import { readSidecar } from "../io/sidecarFile.js";
import { waitUntil } from "../io/sleep.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { CommandCall } from "./commandTable.js";
import { type Context, EXIT } from "./context.js";
import { readStopHookRegistered } from "./doctorChecks.js";
import { startLoop } from "./startLoop.js";

/** How long the helper waits for the background session to take the loop (it starts in a second or two). */
const TAKE_WAIT_MS = 30_000;

const cannot = (command: string, why: string, expected: string) =>
  new LoopError("CLAUDE_UNAVAILABLE", why, { file: command, expected });

/** The loop's worktree; `made` when this start made it (`branch` too, when it made that): a failed start takes them away. */
interface Worktree {
  path: string;
  made: boolean;
  branch?: string;
}

/**
 * The worktree `claude --bg -w NAME` runs in, made first so the loop's file is there before the session starts:
 * where Claude Code makes it (`.claude/worktrees/NAME`, branch `worktree-NAME`; measured), which it then reuses.
 */
function prepareWorktree(root: string, name: string, ctx: Context, command: string): Worktree {
  const env = ctx.env as NodeJS.ProcessEnv;
  try {
    readGitRepo(root, env);
  } catch {
    throw new LoopError("USAGE", "--worktree needs a git repository", {
      file: command,
      field: "--worktree",
      expected: "a project inside a git work tree (git init, and one commit)",
      received: root,
    });
  }
  const path = join(root, ".claude", "worktrees", name);
  if (existsSync(path)) return { path, made: false };
  const branch = `worktree-${name}`;
  const known = spawnGit({ root, env }, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]).status === 0;
  const added = spawnGit(
    { root, env },
    ["worktree", "add", ...(known ? [path, branch] : ["-b", branch, path, "HEAD"])],
    { personHooks: true },
  );
  if (added.status !== 0)
    throw new LoopError("USAGE", `git worktree add failed: ${added.stderr.trim().split("\n")[0] ?? ""}`, {
      file: command,
      field: "--worktree",
      expected: "a project with at least one commit, and a name no other worktree uses",
    });
  return { path, made: true, ...(!known && { branch }) };
}

/**
 * Takes away the worktree a failed start made, and its branch, so that "it was not started" leaves nothing behind;
 * git refuses a worktree holding anything else (the person's files stay). Returns what was left, if anything.
 */
function removeMadeWorktree(root: string, made: Worktree, ctx: Context): string | undefined {
  const env = ctx.env as NodeJS.ProcessEnv;
  if (spawnGit({ root, env }, ["worktree", "remove", made.path]).status !== 0) return made.path;
  if (made.branch) spawnGit({ root, env }, ["branch", "-d", made.branch]);
  return undefined;
}

/** Takes the loop back out of the way when Claude Code did not start the session: only a file still waiting for it. */
function removePending(file: LoopFile, owner: string): void {
  updateStateFile(file, (snapshot) =>
    snapshot.kind === "found" && snapshot.state.session_id === owner
      ? { change: { remove: true }, result: undefined }
      : { result: undefined },
  );
}

/** The session that took the loop, and the permission mode it said; undefined while none has. */
function readTaken(file: LoopFile, owner: string): { session: string; mode: string } | undefined {
  const read = readStateFile(file.statePath, file.shown);
  if (read.kind !== "found") return undefined;
  const state = parseState(read.text, file.shown);
  if (state.session_id === undefined || state.session_id === owner) return undefined;
  return { session: state.session_id, mode: readSidecar(file.sidecarPath, state).permission_mode };
}

/** `start --bg`: writes the loop, starts the session, waits for it to take the loop, and says how to follow it. */
export function startInBackground(request: StartRequest, claudeArgs: string[], call: CommandCall): number {
  const { ctx, command } = call;
  const claude = findClaude(ctx.env, ctx.cwd);
  if ("missing" in claude)
    throw cannot(
      command,
      `Claude Code was not found (${claude.missing})`,
      "claude on PATH, or CONTINUATION_LOOP_CLAUDE",
    );
  const worktree =
    request.worktree === undefined ? undefined : prepareWorktree(call.root, request.worktree, ctx, command);
  const root = worktree?.path ?? call.root;
  const owner = `${BACKGROUND_START}${randomBytes(4).toString("hex")}`;
  const started = startLoop({ ...request, background: undefined }, ctx, root, owner);
  // The plugin from this package, unless the settings load it already (an install, or the plugin enabled).
  const plugin = readStopHookRegistered(call.root, ctx.env, ctx.home) ? [] : ["--plugin-dir", ctx.packageRoot];
  const args = [
    "--bg",
    ...(request.worktree === undefined ? [] : ["-w", request.worktree]),
    ...plugin,
    ...claudeArgs,
    "--",
    renderTakeOverPrompt(owner, "This background session runs the loop continuation-loop started", started.context),
  ];
  const ran = runClaudeCommand(claude.path, args, { cwd: call.root, env: ctx.env });
  const short = /backgrounded · ([0-9a-f]{8})/.exec(ran.stdout)?.[1];
  if (ran.code !== 0 || short === undefined) {
    removePending(started.file, owner);
    const left = worktree?.made ? removeMadeWorktree(call.root, worktree, ctx) : undefined;
    const said = `${ran.stderr}\n${ran.stdout}`.split("\n").find((line) => line.trim() && !/^Starting/.test(line));
    throw cannot(
      command,
      `Claude Code did not start a background session (${ran.error ?? `exit ${ran.code}`}${said ? `: ${said.trim()}` : ""})`,
      `what Claude Code says to do, then start the loop again; it was not started${left ? ` (its worktree ${left} is left: it holds other files)` : ""}`,
    );
  }
  // The session takes the loop at its first prompt, a second or two from now.
  let taken: ReturnType<typeof readTaken>;
  waitUntil(
    () => {
      taken = readTaken(started.file, owner);
      return taken !== undefined;
    },
    TAKE_WAIT_MS,
    100,
  );
  const lines = renderBackgroundStarted({
    short,
    summary: started.summary,
    worktree: request.worktree === undefined ? undefined : join(".claude", "worktrees", request.worktree),
    name: started.file.name,
    taken: taken !== undefined,
  });
  const note = taken && renderPermissionNote(taken.mode);
  ctx.out(`${[...lines, ...(note ? [note] : [])].join("\n")}\n`);
  return EXIT.ok;
}

/**
 * UserPromptSubmit: a background session's first prompt from `start --bg` or `resume --bg` names the loop's owner
 * (a start's placeholder, or the session a resume went on from, which Claude Code may have copied under another
 * id); the loop becomes this session's, its bookkeeping kept, with the permission mode the session says it runs in.
 */
export function takeOverFromPrompt(input: JsonObject | undefined, ctx: Context): void {
  const owner = parseTakeOver(stringField(input, "prompt"));
  const sessionId = stringField(input, "session_id");
  if (owner === undefined || !sessionId) return;
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const found = scanLoops(root, ctx.env).loops.find((loop) => loop.owner === owner);
  if (!found) return;
  const { file } = found;
  updateStateFile(file, (snapshot) => {
    if (snapshot.kind !== "found" || snapshot.state.session_id !== owner) return { result: undefined };
    const { state, text, runtime } = snapshot;
    return {
      ...(owner !== sessionId && {
        change: {
          write: editFrontmatter(text, { session_id: sessionId }, file.shown),
          state: { ...state, session_id: sessionId },
        },
      }),
      runtime: { ...runtime, permission_mode: stringField(input, "permission_mode") ?? "" },
      result: undefined,
    };
  });
}
