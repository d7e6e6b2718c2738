// The project's one zod set-up, imported by every module that builds a schema. No JIT: a hook is a
// fresh process that validates a handful of values once, so compiling a fast path would only add
// start-up time.
import { config } from "zod/mini";

config({ jitless: true });
