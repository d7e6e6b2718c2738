// Stop hook entry (hooks/stop.js): exit 2 only to continue a loop; never on error.
import { concernsLoop } from "../app/concernsLoop.js";
import { readHookStdin } from "../core/hookStdin.js";
import { loadActiveStop } from "./loadActive.js";
import { exitOnOldNode } from "./oldNode.js";
import { processContext } from "./processContext.js";

exitOnOldNode("stop");
const ctx = processContext();
const stdin = readHookStdin(ctx.readStdin());
const found = concernsLoop(stdin, ctx, true);
if (!found) process.exit(0);
try {
  const answer = loadActiveStop().runStopHook(stdin, ctx, found);
  if (answer.json) ctx.out(`${JSON.stringify(answer.json)}\n`);
  if (answer.stderr) ctx.err(answer.stderr);
  process.exit(answer.exitCode);
} catch (error) {
  // A bug must not trap Claude in a loop or print a stack trace at the user.
  const detail = error instanceof Error ? error.message : String(error);
  const message = `continuation-loop: internal error in the Stop hook (${detail}); the loop did not continue.`;
  ctx.out(`${JSON.stringify({ systemMessage: message })}\n`);
  process.exit(0);
}
