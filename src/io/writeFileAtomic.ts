import { closeSync, fchmodSync, fsyncSync, openSync, readdirSync, renameSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readProcessGone } from "./processes.js";
import { reachCrashPoint } from "./crashPoint.js";
import { writeWholeInto } from "./diskFull.js";

/** Temp files older than this are a killed writer's, whatever their pid says (a live writer needs milliseconds). */
const STALE_TEMP_MS = 60_000;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Removes temp files (`.<name>.<pid>.<random>.tmp`) left by writers killed before their rename: this
 * file's and its siblings' (same first name segment, e.g. the sidecar beside a state file), so the
 * undurable sidecar writes need no sweep of their own. A temp file goes when its writer's process is
 * gone or it is over a minute old.
 */
export function removeStaleTemps(path: string): void {
  const dir = dirname(path);
  const stem = basename(path).split(".")[0] ?? "";
  const ours = new RegExp(`^\\.${escapeRegExp(stem)}[^/]*\\.(\\d+)\\.[a-z0-9]+\\.tmp$`);
  try {
    for (const name of readdirSync(dir)) {
      const pid = ours.exec(name)?.[1];
      if (pid === undefined) continue;
      const temp = join(dir, name);
      if (readProcessGone(Number(pid)) || Date.now() - statSync(temp).mtimeMs > STALE_TEMP_MS) unlinkSync(temp);
    }
  } catch {
    // best effort: a stray temp file never replaces the state file
  }
}

/** A failed write names no file, a failed open the temp file: the file it was for is named, so that a refusal can say which. */
function namePath(error: unknown, path: string, temp: string): unknown {
  const failure = error as NodeJS.ErrnoException;
  if (typeof failure?.code === "string" && (failure.path === undefined || failure.path === temp)) failure.path = path;
  return error;
}

/**
 * Gives the temp file the mode of the file it replaces. FAT, exFAT and some network shares keep no modes and
 * refuse a chmod (EPERM, ENOSYS, ENOTSUP): the mode is then the folder's anyway, and the save goes on.
 */
function keepMode(fd: number, mode: number): void {
  try {
    fchmodSync(fd, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOSYS" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw error;
  }
}

/**
 * Atomic replace: write a temp file in the same directory, fsync, rename over the target.
 * A reader (or a crash) sees either the old file or the new one, never a torn mix.
 * `stillCurrent` is asked at the last moment, just before the rename: false abandons the write
 * (returns false) so the caller can re-read a file that changed meanwhile. `durable: false` skips
 * the fsync, for files that can be lost in a power cut without losing anything of the user's.
 * `sweepTemps` (default: when durable) first removes the temp files of killed writers.
 */
export function writeFileAtomic(
  path: string,
  text: string | Buffer,
  {
    stillCurrent,
    durable = true,
    sweepTemps = durable,
  }: { stillCurrent?: () => boolean; durable?: boolean; sweepTemps?: boolean } = {},
): boolean {
  // A sidecar's stray temp file is harmless, and every readdir costs a Stop time.
  if (sweepTemps) removeStaleTemps(path);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`);
  let mode = 0o644;
  let kept = false;
  try {
    mode = statSync(path).mode & 0o777;
    kept = true;
  } catch {
    // new file: default mode, narrowed by the umask
  }
  let fd: number;
  try {
    fd = openSync(temp, "wx", mode);
  } catch (error) {
    throw namePath(error, path, temp);
  }
  try {
    // The umask narrows open's mode: a file the person made group-readable stays so under umask 077.
    if (kept) keepMode(fd, mode);
    const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
    writeWholeInto(path, fd, bytes);
    reachCrashPoint("temp-written");
    if (durable) {
      fsyncSync(fd);
      reachCrashPoint("fsync-done");
    }
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw namePath(error, path, temp);
  }
  closeSync(fd);
  try {
    if (stillCurrent && !stillCurrent()) {
      unlinkSync(temp);
      return false;
    }
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
  reachCrashPoint("rename-done");
  return true;
}
