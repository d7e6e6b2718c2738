import { realpathSync } from "node:fs";
import { type BoundedRead, readBounded } from "./readBounded.js";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { LoopError } from "../core/errors.js";
import { unifyLineBreaks } from "../core/lineBreaks.js";
import { describeNotText } from "../core/textEncoding.js";

/** Is `path` the folder `root` or inside it? */
export const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

/**
 * Real path of the deepest existing ancestor, so a symlinked folder is judged by where it points.
 * The system's realpath (one call), not Node's own walk with a stat per folder.
 */
export function realOf(path: string): string {
  for (let p = path; ; p = dirname(p)) {
    try {
      const real = realpathSync.native(p);
      return p === path ? real : resolve(real, relative(p, path));
    } catch {
      if (dirname(p) === p) return path;
    }
  }
}

/** A file the loop reads from the project (notes, checklist); `what` names it in messages. */
interface ProjectFile {
  field: "notes_file" | "checklist";
  code: "NOTES_OUTSIDE_PROJECT" | "CHECKLIST_OUTSIDE_PROJECT";
  what: string;
  example: string;
  /** The most bytes read: notes are cut there, a checklist larger is refused (its last boxes would go uncounted). */
  max: number;
}

/** The file's absolute path; refuses one that leaves the project (`..`, absolute, a symlink out). */
function resolveProjectPath(root: string, relPath: string, shownAs: string, spec: ProjectFile): string {
  const path = resolve(root, relPath);
  if (!inside(root, path) || !inside(realOf(root), realOf(path))) {
    throw new LoopError(spec.code, `the ${spec.what} is outside the project`, {
      file: shownAs,
      field: spec.field,
      expected: `a path inside the project, e.g. ${spec.example}`,
      received: JSON.stringify(relPath),
    });
  }
  return path;
}

/** Why a read found no file to read: missing, not a regular file (a folder, a FIFO), or not opened. */
function explainUnread(read: Exclude<BoundedRead, { kind: "found" }>): string {
  switch (read.kind) {
    case "missing":
      return "it does not exist";
    case "not a file":
      return "it is not a regular file (a folder or a pipe)";
    case "unopened":
      return `it cannot be opened (${read.code}${read.code === "ELOOP" ? ": a symlink loop" : ""})`;
    case "too large":
      return `it is too large (${read.size} bytes)`;
  }
}

/** The file's first `spec.max` bytes as text and its size, or why there is none; refuses paths that leave the project. */
function readProjectText(
  root: string,
  relPath: string,
  shownAs: string,
  spec: ProjectFile,
): { text: string; size: number } | { unread: string } {
  const path = resolveProjectPath(root, relPath, shownAs, spec);
  const read = readBounded(path, spec.max, { keep: "head" });
  return read.kind === "found"
    ? { text: read.bytes.toString("utf8"), size: read.stat.size }
    : { unread: explainUnread(read) };
}

const NOTES: ProjectFile = {
  field: "notes_file",
  code: "NOTES_OUTSIDE_PROJECT",
  what: "notes file",
  example: "SHARED_TASK_NOTES.md",
  max: 32 * 1024,
};
const CHECKLIST: ProjectFile = {
  field: "checklist",
  code: "CHECKLIST_OUTSIDE_PROJECT",
  what: "checklist",
  example: "PLAN.md",
  max: 1024 * 1024,
};

/**
 * The notes file's text ("" when it does not exist yet); refuses paths that leave the project. A file over the
 * bound shows its head and its tail, where a long loop's newest notes are, with what was left out between them.
 */
export function readNotes(root: string, notesFile: string, shownAs: string): { path: string; text: string } {
  const path = resolveProjectPath(root, notesFile, shownAs, NOTES);
  const read = readBounded(path, NOTES.max, { keep: "head" });
  if (read.kind === "missing") return { path: notesFile, text: "" };
  // Claude is told why, in place of the notes: it may be the one to fix it.
  if (read.kind !== "found") return { path: notesFile, text: `(not shown: ${explainUnread(read)})` };
  const text = read.bytes.toString("utf8");
  const notText = describeNotText(text);
  if (notText) return { path: notesFile, text: `(not shown: it is ${notText}, not UTF-8 text)` };
  if (read.stat.size <= NOTES.max) return { path: notesFile, text: unifyLineBreaks(text) };
  const half = NOTES.max / 2;
  const tail = readBounded(path, half, { keep: "tail" });
  const head = cutAtLine(read.bytes.subarray(0, half), "head");
  const end = tail.kind === "found" ? cutAtLine(tail.bytes, "tail") : Buffer.alloc(0);
  const left = Math.max(1, Math.round((read.stat.size - head.length - end.length) / 1024));
  const note = `… (${left} KiB left out here: the file is over ${NOTES.max / 1024} KiB; shorten what is done)`;
  return { path: notesFile, text: unifyLineBreaks(`${head.toString("utf8")}${note}\n${end.toString("utf8")}`) };
}

/** Whole lines of a file's `head` (up to its last line break) or `tail` (after its first); all of it with none. */
function cutAtLine(bytes: Buffer, side: "head" | "tail"): Buffer {
  const at = side === "head" ? bytes.lastIndexOf(0x0a) : bytes.indexOf(0x0a);
  if (at < 0) return bytes;
  return side === "head" ? bytes.subarray(0, at + 1) : bytes.subarray(at + 1);
}

/** The checklist's text; a missing or unreadable checklist is an invalid field (docs/REFERENCE.md "Checklists"). */
export function readChecklistText(root: string, checklist: string, shownAs: string): string {
  const read = readProjectText(root, checklist, shownAs, CHECKLIST);
  if ("unread" in read) {
    throw new LoopError("CHECKLIST_UNREADABLE", `the checklist cannot be read: ${read.unread}`, {
      file: shownAs,
      field: "checklist",
      expected: "a Markdown file in the project with task boxes, e.g. PLAN.md holding - [ ] Write the tests",
      received: JSON.stringify(checklist),
    });
  }
  const notText = describeNotText(read.text);
  if (notText) {
    throw new LoopError("CHECKLIST_UNREADABLE", `the checklist is ${notText}, not UTF-8 text`, {
      file: shownAs,
      field: "checklist",
      expected: `a UTF-8 Markdown file with task boxes: save ${checklist} again as UTF-8`,
      received: JSON.stringify(checklist),
    });
  }
  if (read.size > CHECKLIST.max)
    throw new LoopError("CHECKLIST_TOO_LARGE", "the checklist is too large for its boxes to be counted", {
      file: shownAs,
      field: "checklist",
      expected: `a checklist of at most ${CHECKLIST.max / 1024 / 1024} MiB (move finished sections to another file)`,
      received: `${checklist}, ${read.size} bytes`,
    });
  return read.text;
}

/**
 * Refuses a `notes_file` or `checklist` that leaves the project, as the first Stop would; a file not there yet
 * is fine (Claude may write it in the first turn).
 */
export function checkProjectPaths(state: { notes_file?: string; checklist?: string }, root: string, shownAs: string) {
  if (state.notes_file !== undefined) resolveProjectPath(root, state.notes_file, shownAs, NOTES);
  if (state.checklist !== undefined) resolveProjectPath(root, state.checklist, shownAs, CHECKLIST);
}
