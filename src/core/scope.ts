import { posix } from "node:path";

/**
 * `scope` (docs/REFERENCE.md "Improvement loops"): the paths a loop may change, relative to the project root;
 * a folder covers what is under it. Pure: the symlink check and the tree comparison are in
 * src/io/readScopeChanges.ts.
 */

/**
 * An entry as written → its normal form (`./src/` → `src`, `.` → ""), or undefined when it leaves
 * the project as written: absolute (`/etc`, `C:\x`, `~/x`), or `..` past the root.
 */
export function normalizeScopeEntry(entry: string): string | undefined {
  const text = entry.trim().replace(/\\/g, "/");
  if (text === "" || text.includes("\0")) return undefined;
  if (text.startsWith("/") || text.startsWith("~") || /^[A-Za-z]:/.test(text)) return undefined;
  const normal = posix.normalize(text).replace(/\/+$/, "");
  if (normal === ".." || normal.startsWith("../")) return undefined;
  return normal === "." ? "" : normal;
}

/** The field's value (a path or a list of them) as entries; undefined for a list that is empty or holds a non-path. */
export function readScopeEntries(value: unknown): string[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((v) => typeof v === "string" && v.trim() !== "")) return undefined;
  return list as string[];
}

/** Does the value name paths that all stay inside the project (as written)? The field's check. */
export const isScopeValue = (value: unknown): boolean =>
  readScopeEntries(value)?.every((entry) => normalizeScopeEntry(entry) !== undefined) ?? false;

/**
 * Is `path` (relative to the root, `/`-separated) one of the entries or under one of them? A path beside
 * the project (`../web/w.js`, in a repository that holds more than the project) never is.
 */
export function inScope(path: string, entries: readonly string[]): boolean {
  if (path.startsWith("../")) return false;
  // NFC on both sides: a name macOS wrote in NFD is the same name as the one typed in the state file.
  const own = path.normalize("NFC");
  return entries.some((written) => {
    const entry = written.normalize("NFC");
    return entry === "" || own === entry || own.startsWith(`${entry}/`);
  });
}

/** A path as one line: one holding a line break, a tab or another control character is shown quoted, escaped. */
const renderPathLine = (path: string): string => (/[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path);

/** The files outside scope, in order. `entries` are normalized (normalizeScopeEntry). */
export const outsideScope = (paths: readonly string[], entries: readonly string[] | undefined): string[] =>
  entries === undefined ? [] : paths.filter((path) => !inScope(path, entries));

/** Up to ten paths, then "and N more". */
export function renderFileList(paths: readonly string[], max = 10): string {
  const shown = paths.slice(0, max).map(renderPathLine).join(", ");
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}

/**
 * Why an iteration's changes pause the loop, or undefined when they do not: files outside `scope`,
 * then more files than `max_files_changed`.
 */
export function decideScope(
  changed: readonly string[],
  entries: readonly string[] | undefined,
  maxFiles: number | undefined,
): string | undefined {
  const outside = outsideScope(changed, entries);
  if (outside.length > 0) {
    return `${outside.length} file(s) changed outside scope (${entries?.map((e) => e || ".").join(", ")}): ${renderFileList(outside)}`;
  }
  if (maxFiles !== undefined && changed.length > maxFiles) {
    return `${changed.length} files changed in one iteration, more than max_files_changed (${maxFiles}): ${renderFileList(changed)}`;
  }
  return undefined;
}
