import { readMonotonicMs } from "./monotonic.js";

/** Blocks the thread: hooks are short synchronous processes with nothing else to run meanwhile. */
export function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Looks every `stepMs` until `done()` holds or `timeoutMs` has passed on the machine's own clock; whether it held. */
export function waitUntil(done: () => boolean, timeoutMs: number, stepMs: number): boolean {
  const deadline = readMonotonicMs() + timeoutMs;
  while (!done()) {
    if (readMonotonicMs() >= deadline) return false;
    sleep(stepMs);
  }
  return true;
}
