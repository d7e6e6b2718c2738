// The project's one zod set-up, run before the first schema is built (schemas are built on first
// use: see fields.ts and hookInput.ts). zod/mini has the same checks as classic zod at a fraction of
// its load time (see bench/); no JIT: a hook validates a handful of values once per process, so
// compiling a fast path with `new Function` would only add start-up time.
import { config } from "zod/mini";

let done = false;

export function setupZod(): void {
  if (done) return;
  done = true;
  config({ jitless: true });
}
