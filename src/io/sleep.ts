/** Blocks the thread: hooks are short synchronous processes with nothing else to run meanwhile. */
export function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
