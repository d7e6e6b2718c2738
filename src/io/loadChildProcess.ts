/**
 * node:child_process, loaded on first use: most Stops start no process (git and commands run only when
 * a loop asks for them), and loading the module costs every active hook run (docs/PERFORMANCE.md).
 */
export function loadChildProcess(): typeof import("node:child_process") {
  return process.getBuiltinModule("node:child_process");
}

/** node:worker_threads, loaded on first use: only a Stop that runs a user's command needs it (src/io/runVerify.ts). */
export function loadWorkerThreads(): typeof import("node:worker_threads") {
  return process.getBuiltinModule("node:worker_threads");
}
