// SessionStart, SessionEnd and StopFailure entry (hooks/session.js): the loop again after compaction,
// a loop carried over /clear, and API errors recorded. These events fire rarely; the loop's code
// loads only when one concerns it.
import { existsSync } from "node:fs";
import { concernsLoop } from "../app/concernsLoop.js";
import { clearHandoverPath, resolveProjectRoot } from "../core/loopFiles.js";
import { readClaudePid } from "../io/readClaudePid.js";
import { readHookStdin, stringField } from "../core/hookStdin.js";
import { processContext } from "./processContext.js";

const ctx = processContext();
const stdin = readHookStdin(ctx.readStdin());
const input = stdin.json;
const event = stringField(input, "hook_event_name");
const print = (out: string) => out && ctx.out(out);

/** What this event asks of a loop, if anything; the process ends when it is done. */
function run(): Promise<unknown> | undefined {
  if (event === "SessionStart" && stringField(input, "source") === "clear") {
    // Only a /clear whose SessionEnd left a handover for this process concerns a loop.
    const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
    if (!existsSync(clearHandoverPath(root, readClaudePid(ctx.env)))) return undefined;
    return import("../app/clearHandover.js").then(({ takeOverAfterClear }) => print(takeOverAfterClear(input, ctx)));
  }
  if (!concernsLoop(stdin, ctx)) return undefined;
  if (event === "StopFailure")
    return import("../app/recordApiError.js").then(({ recordApiError }) => recordApiError(input, ctx));
  if (event === "SessionEnd")
    return import("../app/clearHandover.js").then(({ recordClear }) => recordClear(input, ctx));
  return import("../app/sessionHook.js").then(({ runSessionHook }) => print(runSessionHook(input, ctx)));
}

const work = run();
if (work) work.catch(() => undefined).then(() => process.exit(0));
else process.exit(0);
