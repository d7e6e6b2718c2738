import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { LoopError } from "../core/errors.js";

const MAX_NOTES = 32 * 1024;

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

/** Real path of the deepest existing ancestor, so a symlinked folder is judged by where it points. */
function realOf(path: string): string {
  for (let p = path; ; p = dirname(p)) {
    try {
      return resolve(realpathSync(p), relative(p, path));
    } catch {
      if (dirname(p) === p) return path;
    }
  }
}

/** The notes file's text ("" when it does not exist yet); refuses paths that leave the project. */
export function readNotes(root: string, notesFile: string, shownAs: string): { path: string; text: string } {
  const path = resolve(root, notesFile);
  if (!inside(root, path) || !inside(realOf(root), realOf(path))) {
    throw new LoopError("NOTES_OUTSIDE_PROJECT", "the notes file is outside the project", {
      file: shownAs,
      field: "notes_file",
      expected: "a path inside the project, e.g. SHARED_TASK_NOTES.md",
      received: JSON.stringify(notesFile),
    });
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)); // a FIFO must not hang the hook
  } catch {
    return { path: notesFile, text: "" };
  }
  try {
    if (!fstatSync(fd).isFile()) return { path: notesFile, text: "" };
    const buf = Buffer.alloc(MAX_NOTES);
    const n = readSync(fd, buf, 0, MAX_NOTES, 0);
    const text = buf.toString("utf8", 0, n);
    return { path: notesFile, text: n === MAX_NOTES ? `${text}\n… (cut at ${MAX_NOTES / 1024} KiB)` : text };
  } finally {
    closeSync(fd);
  }
}
