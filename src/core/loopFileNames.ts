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
/** The writers' lock beside a file, made exclusively by the one writer that holds it (src/io/lock.ts). */
export const renderLockPath = (path: string): string => `${path}.lock`;
/** A lock held longer than this is a killed writer's: the next writer takes it over, and the band reads on. */
export const LOCK_STALE_MS = 10_000;
/** A named loop's name: `.claude/continuation-loop.NAME.local.md`. */
export const LOOP_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** The words that choose a loop on a command line: none for the default loop, ` --name NAME` for another. */
export const renderNameFlag = (name: string): string => (name === "default" ? "" : ` --name ${name}`);

const STATE_FILE_NAME = /^continuation-loop(?:\.([^/]*))?\.local\.md$/;

/**
 * `continuation-loop.NAME.local.md` → "NAME", the default file → "default"; undefined for other names. With the
 * folder's `listed` names, a name written with capitals by hand (`continuation-loop.Foo.local.md`) is the loop of its
 * lower-case name when that is not listed too: a case-insensitive file system (macOS, Windows, FAT, exFAT) opens it by
 * the lower-case path, which the loop's commands use; elsewhere that path is missing, and so is the loop.
 */
export function parseStateFileName(fileName: string, listed?: ReadonlySet<string>): string | undefined {
  const match = STATE_FILE_NAME.exec(fileName);
  const name = match?.[1];
  if (match && name === undefined) return "default";
  if (name !== undefined && LOOP_NAME.test(name)) return name;
  const folded = fileName.toLowerCase();
  return listed && folded !== fileName && !listed.has(folded) ? parseStateFileName(folded) : undefined;
}

/** The state file and sidecar of the loop `name` in `dir` (which ends with its separator). */
export function renderLoopPaths(dir: string, name: string): { statePath: string; sidecarPath: string } {
  const stem = `${dir}${name === "default" ? "continuation-loop" : `continuation-loop.${name}`}`;
  return { statePath: `${stem}.local.md`, sidecarPath: `${stem}.runtime.json` };
}
