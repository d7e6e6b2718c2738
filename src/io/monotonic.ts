/**
 * Milliseconds on the machine's own clock, for how long something takes inside one process: it never jumps with
 * the wall clock (NTP, a clock set by hand) and, on Linux and macOS, stands still while the machine sleeps
 * (docs/REFERENCE.md "When the clock jumps").
 */
export const readMonotonicMs = (): number => performance.now();
