import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, statSync } from "node:fs";
import { writeSyncInto } from "./diskFull.js";

/** Not through a symlink (a link a repository commits must never aim a write elsewhere); never hang on a FIFO. */
const IN_PLACE = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

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
 * Writes `bytes` from `from` on at that place in the file; false when the disk took less (it is full).
 */
function writeAt(path: string, fd: number, bytes: Buffer, from: number): boolean {
  for (let at = from; at < bytes.length; ) {
    const wrote = writeSyncInto(path, fd, bytes, at, bytes.length - at, at);
    if (wrote === 0) return false;
    at += wrote;
  }
  return true;
}

/**
 * Replaces the contents of an existing file by writing over it and cutting what is left, without a
 * temp file or a rename: on ext4 a rename over a file (or a cut to nothing) first sends the new data
 * to the disk, which an active Stop would wait for. For the sidecar only, whose readers
 * discard a torn file (docs/ARCHITECTURE.md); false when the file is missing, a link or not a plain
 * file: then write it whole. A file that grows gets its new end first, and the old text is written over
 * only once that is on the disk: on a full disk the file is cut back to what it was, whole, and false.
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
    if (bytes.length > stat.size) {
      let grown = false;
      try {
        grown = writeAt(path, fd, bytes, stat.size);
      } finally {
        if (!grown) ftruncateSync(fd, stat.size);
      }
      if (!grown) return false;
    }
    if (!writeAt(path, fd, bytes.subarray(0, Math.min(bytes.length, stat.size)), 0)) return false;
    if (stat.size > bytes.length) ftruncateSync(fd, bytes.length);
    return true;
  } finally {
    closeSync(fd);
  }
}
