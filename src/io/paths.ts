import { dirname, isAbsolute, join, resolve } from "node:path";

export const DEFAULT_STATE_FILE = join(".claude", "continuation-loop.local.md");
export const HISTORY_FILE_NAME = "continuation-loop.history.jsonl";

export type Env = Record<string, string | undefined>;

/** `$CLAUDE_PROJECT_DIR` when set, otherwise the hook input's cwd, otherwise the process cwd. */
export function resolveProjectRoot(env: Env, inputCwd: string | undefined, processCwd: string): string {
  return resolve(env.CLAUDE_PROJECT_DIR || inputCwd || processCwd);
}

/** `CONTINUATION_LOOP_FILE` (absolute or relative to the root) or `.claude/continuation-loop.local.md`. */
export function resolveStatePath(root: string, env: Env): string {
  const override = env.CONTINUATION_LOOP_FILE;
  if (override) return isAbsolute(override) ? override : resolve(root, override);
  return join(root, DEFAULT_STATE_FILE);
}

/** The history sits beside the state file. */
export function resolveHistoryPath(statePath: string): string {
  return join(dirname(statePath), HISTORY_FILE_NAME);
}

/** Claude Code's config dir: `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
export function resolveConfigDir(env: Env, home: string): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || home, ".claude");
}

/** A path shown to users: relative to the project root when inside it. */
export function displayPath(path: string, root: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}
