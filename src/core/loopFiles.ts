import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { HISTORY_FILE_NAME, parseStateFileName, renderLoopPaths, STATE_DIR } from "./loopFileNames.js";

/** Where the loop's files live and what they are called (docs/REFERENCE.md "Several loops"). Pure path logic. */
export type Env = Record<string, string | undefined>;

/** Everything about one loop's files. `name` is "default" for `.claude/continuation-loop.local.md`. */
export interface LoopFile {
  root: string;
  name: string;
  statePath: string;
  sidecarPath: string;
  historyPath: string;
  /** The state path as users see it (relative to the project root when inside it). */
  shown: string;
}

/** The history file beside a loop's state file, as users see it (`.claude/continuation-loop.history.jsonl`). */
export const renderHistoryShown = (file: Pick<LoopFile, "shown">): string =>
  file.shown.replace(/[^/\\]*$/, HISTORY_FILE_NAME);

/**
 * Where a torn sidecar is kept aside (docs/REFERENCE.md "Files the loop keeps"): beside it, under a name no reader
 * of ours takes for a loop or a sidecar (those end in `.local.md` and `.runtime.json`), and that the checks of the
 * working tree leave out with the sidecar (its name starts with the sidecar's).
 */
export const renderKeptSidecarPath = (sidecarPath: string): string => `${sidecarPath}.torn`;

/** A file beside the loop's state file, as users see it. */
export const renderShownBeside = (file: Pick<LoopFile, "shown">, path: string): string =>
  file.shown.replace(/[^/\\]*$/, basename(path));

/** `$CLAUDE_PROJECT_DIR` when set, otherwise the hook input's cwd, otherwise the process cwd. */
export function resolveProjectRoot(env: Env, inputCwd: string | undefined, processCwd: string): string {
  return resolve(env.CLAUDE_PROJECT_DIR || inputCwd || processCwd);
}

/** Claude Code's config dir: `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
export function resolveConfigDir(env: Env, home: string): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || home, ".claude");
}

/** A path shown to users: relative to the project root when inside it. */
function displayPath(path: string, root: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** `x.local.md` → `x.runtime.json`; any other file (a pinned one) gets the suffix appended. */
function besideState(statePath: string, suffix: string): string {
  return statePath.endsWith(".local.md")
    ? `${statePath.slice(0, -".local.md".length)}${suffix}`
    : `${statePath}${suffix}`;
}

function loopFileOf(root: string, statePath: string, name: string): LoopFile {
  return {
    root,
    name,
    statePath,
    sidecarPath: besideState(statePath, ".runtime.json"),
    historyPath: `${dirname(statePath)}${sep}${HISTORY_FILE_NAME}`,
    shown: displayPath(statePath, root),
  };
}

/** The files the loop itself writes, which no scope, stall or checkpoint check counts as a change. */
export function ownFilesOf(file: LoopFile): string[] {
  return [file.statePath, file.sidecarPath, file.historyPath];
}

/** A /clear in progress: the session that ended, keyed by the Claude Code process that runs on. */
export function clearHandoverPath(root: string, pid: string): string {
  return `${root}${sep}${STATE_DIR}${sep}continuation-loop.clear-${pid}.json`;
}

/** The loop called `name` ("default" or a LOOP_NAME) in a project. */
export function loopFileAt(root: string, name: string): LoopFile {
  // Concatenated, not join()ed or dirname()d: `root` is already resolved, and the idle Stop builds
  // one per loop file (path functions walk their argument a character at a time).
  const dir = `${root}${sep}${STATE_DIR}${sep}`;
  const paths = renderLoopPaths(dir, name);
  return {
    root,
    name,
    ...paths,
    historyPath: `${dir}${HISTORY_FILE_NAME}`,
    shown: `${STATE_DIR}/${paths.statePath.slice(dir.length)}`,
  };
}

/** `CONTINUATION_LOOP_FILE` (absolute, or relative to the root): one file, and no search. */
export function pinnedLoopFile(root: string, env: Env): LoopFile | undefined {
  const pinned = env.CONTINUATION_LOOP_FILE;
  if (!pinned) return undefined;
  const statePath = isAbsolute(pinned) ? pinned : resolve(root, pinned);
  return loopFileOf(root, statePath, parseStateFileName(basename(statePath)) ?? "default");
}

/** A loop file found in the project, with the owner its frontmatter names (read without a full parse). */
export interface FoundLoop {
  file: LoopFile;
  owner: string | undefined;
}

/**
 * The loop a session works on (docs/REFERENCE.md "Several loops"): the one bound to it, else — when it owns
 * none — the first unowned one, the default file first. `orphans`: a session whose loop's file is gone (an
 * editor's save moving it away for a moment, or an end not yet told) claims none. Pure.
 */
export function chooseSessionLoop(
  found: FoundLoop[],
  sessionId: string | undefined,
  orphans: FoundLoop[] = [],
): FoundLoop | undefined {
  if (sessionId !== undefined) {
    const own = found.find((loop) => loop.owner === sessionId);
    if (own) return own;
    if (orphans.some((orphan) => orphan.owner === sessionId)) return undefined;
  }
  return found.find((loop) => loop.owner === undefined);
}
