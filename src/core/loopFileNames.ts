// The names of a loop's files (docs/REFERENCE.md "Several loops"), with no path logic: the companion module
// names them too, and carries no node:path.

export const STATE_DIR = ".claude";
/** The project's history, one file for all its loops (docs/REFERENCE.md "History"). */
export const HISTORY_FILE_NAME = "continuation-loop.history.jsonl";
/**
 * How long an editor's save is given to put the state file back, moved away (Emacs' backup, JetBrains' safe
 * write, vim's backupcopy=no) or emptied (a `>` redirect): a moment with no file is no deletion.
 */
export const EDITOR_SAVE_MS = 1_000;
/** A named loop's name: `.claude/continuation-loop.NAME.local.md`. */
export const LOOP_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

const STATE_FILE_NAME = /^continuation-loop(?:\.([^/]*))?\.local\.md$/;

/** `continuation-loop.NAME.local.md` → "NAME", the default file → "default"; undefined for other names. */
export function parseStateFileName(fileName: string): string | undefined {
  const match = STATE_FILE_NAME.exec(fileName);
  if (!match) return undefined;
  const name = match[1];
  return name === undefined ? "default" : LOOP_NAME.test(name) ? name : undefined;
}

/** The state file and sidecar of the loop `name` in `dir` (which ends with its separator). */
export function renderLoopPaths(dir: string, name: string): { statePath: string; sidecarPath: string } {
  const stem = `${dir}${name === "default" ? "continuation-loop" : `continuation-loop.${name}`}`;
  return { statePath: `${stem}.local.md`, sidecarPath: `${stem}.runtime.json` };
}
