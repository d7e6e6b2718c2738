import { closeSync, openSync, statSync, unlinkSync, writeSync } from "node:fs";

export interface LockOptions {
  /** A lock older than this is left over from a killed hook and is taken over. */
  staleMs?: number;
  /** How long to wait for a live lock before giving up. */
  waitMs?: number;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Creates `<path>.lock` exclusively; returns a release function, or undefined when it stays busy. */
export function acquireLock(path: string, { staleMs = 10_000, waitMs = 5_000 }: LockOptions = {}): (() => void) | undefined {
  const lock = `${path}.lock`;
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, `${process.pid} ${new Date().toISOString()}\n`);
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lock);
        } catch {
          // already gone: nothing to release
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > staleMs) unlinkSync(lock);
    } catch {
      // released meanwhile: try again at once
    }
    if (Date.now() > deadline) return undefined;
    sleep(Math.min(50, 5 + attempt * 5));
  }
}
