// Stop hook entry (hooks/stop.js): exit 2 only to continue a loop; never on error.
import { concernsLoop } from "../app/concernsLoop.js";
import type { Context } from "../app/context.js";
import type { LoopLookup } from "../app/concernsLoop.js";
import { type HookStdin, readHookStdin } from "../core/hookStdin.js";
import { processContext } from "./processContext.js";

/** The active path; no top-level await: the bundle is CommonJS (scripts/build.mjs). */
async function runActive(stdin: HookStdin, ctx: Context, found: LoopLookup): Promise<void> {
  try {
    // Loaded only when a loop exists: the parser and schemas cost start-up time.
    const { runStopHook } = await import("../app/stopHook.js");
    const answer = runStopHook(stdin, ctx, found);
    if (answer.stdout) ctx.out(answer.stdout);
    if (answer.stderr) ctx.err(answer.stderr);
    process.exit(answer.exitCode);
  } catch (error) {
    // A bug must not trap Claude in a loop or print a stack trace at the user.
    const detail = error instanceof Error ? error.message : String(error);
    const message = `continuation-loop: internal error in the Stop hook (${detail}); the loop did not continue.`;
    ctx.out(`${JSON.stringify({ systemMessage: message })}\n`);
    process.exit(0);
  }
}

const ctx = processContext();
const stdin = readHookStdin(ctx.readStdin());
const found = concernsLoop(stdin, ctx);
if (found) void runActive(stdin, ctx, found);
else process.exit(0);
