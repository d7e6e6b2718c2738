/**
 * Milliseconds on the machine's own clock, for how long something takes inside one process: it never jumps with
 * the wall clock (NTP, a clock set by hand) and, on Linux and macOS, stands still while the machine sleeps
 * (docs/REFERENCE.md "When the clock jumps"). `process.hrtime`, not the `performance` global, whose first use
 * loads Node's performance module on every active Stop that takes the lock (docs/PERFORMANCE.md).
 */
export const readMonotonicMs = (): number => Number(process.hrtime.bigint() / 1000n) / 1000;
