// SessionStart, SessionEnd, StopFailure and Notification entry (hooks/session.js): the loop again after compaction,
// a loop carried over /clear, API errors and permission prompts recorded, and at a session's start the Node check
// alone. These events fire rarely; the loop's code (hooks/active/session.js) loads only when one concerns it.
import { existsSync } from "node:fs";
import { concernsLoop } from "../app/concernsLoop.js";
import { warnBothRoutes } from "../app/bothRoutes.js";
import { clearHandoverPath, resolveProjectRoot } from "../core/loopFiles.js";
import { readClaudePid } from "../io/processes.js";
import { readHookStdin, stringField } from "../core/hookStdin.js";
import { loadActiveSession } from "./loadActive.js";
import { exitOnOldNode } from "./oldNode.js";
import { processContext } from "./processContext.js";

exitOnOldNode("session");
const ctx = processContext();
const stdin = readHookStdin(ctx.readStdin());
const input = stdin.json;
const event = stringField(input, "hook_event_name");
const print = (out: string) => out && ctx.out(out);

/** What this event asks of a loop, if anything. */
function run(): void {
  // A session's start runs this for the Node check above (hooks/hooks.json), and to name a second route.
  if (event === "SessionStart" && stringField(input, "source") === "startup") {
    print(warnBothRoutes(ctx, stringField(input, "cwd")));
    return;
  }
  if (event === "SessionStart" && stringField(input, "source") === "clear") {
    // Only a /clear whose SessionEnd left a handover for this process concerns a loop.
    const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
    if (existsSync(clearHandoverPath(root, readClaudePid(ctx.env))))
      print(loadActiveSession().takeOverAfterClear(input, ctx));
    return;
  }
  if (event === "SessionStart" && stringField(input, "source") === "resume") {
    print(warnBothRoutes(ctx, stringField(input, "cwd")));
    // Only in a background session (2.1.197's `/background` starts one under the id of the session it continues).
    const from = stringField(input, "session_id");
    if (ctx.env.CLAUDE_JOB_DIR && concernsLoop(stdin, ctx)?.loop?.owner === from)
      loadActiveSession().recordContinuedInJob(input, ctx);
    return;
  }
  if (!concernsLoop(stdin, ctx)) return;
  // Notification is registered for permission prompts only (hooks.json's matcher).
  if (event === "Notification") print(loadActiveSession().recordPermissionWait(input, ctx));
  else if (event === "StopFailure") print(loadActiveSession().recordApiError(input, ctx));
  else if (event === "SessionEnd") loadActiveSession().recordClear(input, ctx);
  else print(loadActiveSession().runSessionHook(input, ctx));
}

try {
  run();
} catch {
  // These hooks never block anything: a failure leaves the loop as it was.
}
process.exit(0);
