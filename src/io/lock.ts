import { closeSync, existsSync, fstatSync, linkSync, openSync, renameSync, statSync, unlinkSync } from "node:fs";
import { LOCK_STALE_MS, renderLockPath } from "../core/loopFileNames.js";
import { reachCrashPoint, WAIT_POINT } from "./crashPoint.js";
import { writeWholeInto } from "./diskFull.js";
import { readMonotonicMs } from "./monotonic.js";
import { readBounded } from "./readBounded.js";
import { readProcessGone } from "./processes.js";
import { sleep } from "./sleep.js";

export interface LockOptions {
  /** How long to wait for a live lock before giving up. */
  waitMs?: number;
}

/** A lock as read through one descriptor, so that its inode, time, owner pid and stamp belong to the same file. */
interface SeenLock {
  ino: number;
  mtimeMs: number;
  ageMs: number;
  pid: number;
  stamp: string;
}

/** The stamp's `m<ms>`: the machine's own clock when the lock was taken (a lock from 0.2.0 has none). */
const readStampMonotonic = (stamp: string): number | undefined => {
  const mark = /\bm(\d+)\b/.exec(stamp)?.[1];
  return mark === undefined ? undefined : Number(mark);
};

/**
 * How long the lock has been held: by the wall clock, unless the machine's own clock says less. A machine that
 * slept (a laptop closed overnight) moved the wall clock on while its holder's time stood still, and a lock held
 * across the sleep is not thereby left over (docs/REFERENCE.md "When the clock jumps").
 */
function readHeldMs(seen: Pick<SeenLock, "ageMs" | "stamp">): number {
  const taken = readStampMonotonic(seen.stamp);
  const own = taken === undefined ? undefined : readMonotonicMs() - taken;
  // Below zero: taken before the machine started again (its clock starts at boot); the wall clock says then.
  return own !== undefined && own >= 0 && own < seen.ageMs ? own : seen.ageMs;
}

function inspect(lock: string): SeenLock | undefined {
  try {
    const read = readBounded(lock, 64, { keep: "head" });
    if (read.kind !== "found") return undefined;
    const stamp = read.bytes.toString("utf8");
    const { ino, mtimeMs } = read.stat;
    return { ino, mtimeMs, ageMs: Date.now() - mtimeMs, pid: Number.parseInt(stamp, 10), stamp };
  } catch {
    return undefined;
  }
}

/**
 * Is `now` the lock seen before? Not by its inode alone: ext4 gives a lock made just after another was removed
 * the removed one's inode number, so its time and stamp (pid and moment) are compared too.
 */
const isSameLock = (now: SeenLock | undefined, seen: SeenLock) =>
  now !== undefined && now.ino === seen.ino && now.mtimeMs === seen.mtimeMs && now.stamp === seen.stamp;

/**
 * Gives a lock moved aside by mistake its name back, unless a newer one has taken it meanwhile. FAT and exFAT
 * have no hard links (EPERM): there a rename puts it back, once the name is seen free.
 */
function putBack(aside: string, lock: string): void {
  try {
    linkSync(aside, lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST" || existsSync(lock)) return;
    renameSync(aside, lock);
  }
}

/**
 * Removes the stale lock judged, never a fresh one another hook created meanwhile: the name is moved
 * aside first, and a lock that turns out to be another one is put back.
 */
function breakLock(lock: string, stale: SeenLock): void {
  const aside = `${lock}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // already gone
  }
  try {
    if (!isSameLock(inspect(aside), stale)) putBack(aside, lock);
  } catch {
    // a newer lock holds the name: it wins
  }
  try {
    unlinkSync(aside);
  } catch {
    // nothing left to clean
  }
}

/** A lock held; `tookOverStale`: a killed holder's lock was broken on the way, so its temp files may linger. */
export interface HeldLock {
  release: () => void;
  tookOverStale: boolean;
}

/** Creates `<path>.lock` exclusively; undefined when it stays busy. */
export function acquireLock(path: string, { waitMs = 5_000 }: LockOptions = {}): HeldLock | undefined {
  const lock = renderLockPath(path);
  const deadline = readMonotonicMs() + waitMs;
  let tookOverStale = false;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      let ino: number;
      try {
        const stamp = Buffer.from(
          `${process.pid} ${new Date(Date.now()).toISOString()} m${Math.floor(readMonotonicMs())}\n`,
        );
        writeWholeInto(lock, fd, stamp);
        ino = fstatSync(fd).ino;
      } catch (error) {
        // A full disk: the empty lock would hold the next hook up until it is old enough to break.
        closeSync(fd);
        try {
          unlinkSync(lock);
        } catch {
          // gone already
        }
        throw error;
      }
      closeSync(fd);
      const release = () => {
        try {
          // Only our own lock: after a takeover the name may belong to another hook.
          if (statSync(lock).ino === ino) unlinkSync(lock);
        } catch {
          // already gone: nothing to release
        }
      };
      return { release, tookOverStale };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const held = inspect(lock);
    // Empty for over a second: its creator died between creating and writing it (microseconds apart). Stamped
    // over a second ahead: the clock was set back since it was made, and an empty one is as old.
    const stale =
      held !== undefined &&
      (readHeldMs(held) > LOCK_STALE_MS ||
        readProcessGone(held.pid) ||
        (held.stamp === "" && Math.abs(held.ageMs) > 1_000));
    if (stale) {
      breakLock(lock, held);
      tookOverStale = true;
    }
    if (readMonotonicMs() > deadline) return undefined;
    if (!stale && attempt === 0) reachCrashPoint(WAIT_POINT);
    if (!stale) sleep(Math.min(50, 5 + attempt * 5));
  }
}

/**
 * The pid of a hook that was ended while it held `<path>.lock` (Claude Code's hook timeout, or a kill): the lock is
 * there and its process is gone. Undefined for no lock or a live holder's.
 */
export function readLeftLock(path: string): number | undefined {
  const held = inspect(renderLockPath(path));
  return held && Number.isInteger(held.pid) && held.pid > 0 && readProcessGone(held.pid) ? held.pid : undefined;
}
