import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
  readSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { sleep } from "./sleep.js";
import { savePauseForTests } from "./writeFileAtomic.js";

/** Longest change written in place: a counter's digits. */
const MAX_PATCH_BYTES = 16;
/** A disk writes a sector whole: a patch inside one is never half on disk after a crash. */
const SECTOR_BYTES = 512;

/** Not through a symlink (a link a repository commits must never aim a write elsewhere); never hang on a FIFO. */
const IN_PLACE = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Where two equally long byte strings differ, when that is a few bytes inside one sector. */
function findPatch(before: Buffer, after: Buffer): { start: number; end: number } | undefined {
  if (before.length !== after.length) return undefined;
  let start = 0;
  while (start < after.length && before[start] === after[start]) start++;
  let end = after.length;
  while (end > start && before[end - 1] === after[end - 1]) end--;
  if (end - start > MAX_PATCH_BYTES || start === end) return undefined;
  return Math.floor(start / SECTOR_BYTES) === Math.floor((end - 1) / SECTOR_BYTES) ? { start, end } : undefined;
}

export type PatchOutcome = "written" | "changed" | "gone" | "unsuitable";

/**
 * Saves `after` over a file that was `before` by writing only the bytes that differ, when they are a
 * few inside one sector (an iteration count going from 4 to 5, not 9 to 10): readers and a crash see
 * the old bytes or the new ones, and everything else in the file is never rewritten, so no temp file,
 * fsync or rename is needed (docs/PERFORMANCE.md). Just before writing, the descriptor it writes to
 * is checked to hold exactly `before` and to still be the file at `path`. "changed": it is not (an
 * edit landed: read again); "unsuitable": replace the whole file instead.
 */
export function patchFile(path: string, before: Buffer, after: Buffer): PatchOutcome {
  const patch = findPatch(before, after);
  if (!patch) return "unsuitable";
  let fd: number;
  try {
    fd = openSync(path, IN_PLACE | constants.O_RDWR);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "gone";
    // A symlink is replaced by a file, as before the in-place write existed.
    if (code === "ELOOP") return "unsuitable";
    throw error;
  }
  try {
    pauseForTests(path);
    const held = holdsSnapshot(fd, path, before);
    if (held !== "same") return held;
    const bytes = after.subarray(patch.start, patch.end);
    if (writeSync(fd, bytes, 0, bytes.length, patch.start) !== bytes.length) throw new Error("short write");
    return "written";
  } finally {
    closeSync(fd);
  }
}

/**
 * Does the open file `fd` hold exactly `snapshot`, untouched while it was read, and is it still the
 * file at `path` (not one an editor has just renamed away)? "gone": nothing is at `path` any more.
 */
export function holdsSnapshot(fd: number, path: string, snapshot: Buffer): "same" | "changed" | "gone" {
  // Plain numbers: a double keeps ctime to a fraction of a microsecond.
  const stat = fstatSync(fd);
  if (!stat.isFile() || stat.size !== snapshot.length) return "changed";
  if (snapshot.length > 0) {
    const current = Buffer.allocUnsafe(snapshot.length);
    if (readSync(fd, current, { position: 0 }) !== current.length || !current.equals(snapshot)) return "changed";
  }
  const named = statSync(path, { throwIfNoEntry: false });
  if (!named) return "gone";
  const same = named.ino === stat.ino && named.dev === stat.dev && named.ctimeMs === stat.ctimeMs;
  return same && named.size === stat.size ? "same" : "changed";
}

/**
 * Replaces the contents of an existing file by writing over it and cutting what is left, without a
 * temp file or a rename: on ext4 a rename over a file (or a cut to nothing) first sends the new data
 * to the disk, which an active Stop would wait for. For the sidecar only, whose readers
 * discard a torn file (docs/ARCHITECTURE.md); false when the file is missing, a link or not a plain
 * file: then write it whole.
 */
export function overwriteFile(path: string, bytes: Buffer): boolean {
  let fd: number;
  try {
    fd = openSync(path, IN_PLACE | constants.O_WRONLY);
  } catch {
    return false;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.nlink !== 1) return false;
    if (writeSync(fd, bytes, 0, bytes.length, 0) !== bytes.length) return false;
    if (stat.size > bytes.length) ftruncateSync(fd, bytes.length);
    return true;
  } finally {
    closeSync(fd);
  }
}

/**
 * The test pause of a save (savePauseForTests), shown by an empty temp file beside the state file
 * while it lasts, as a whole-file save shows its own.
 */
function pauseForTests(path: string): void {
  const pauseMs = savePauseForTests();
  if (pauseMs === 0) return;
  const marker = join(dirname(path), `.${basename(path)}.${process.pid}.patch.tmp`);
  closeSync(openSync(marker, "w"));
  sleep(pauseMs);
  rmSync(marker, { force: true });
}
