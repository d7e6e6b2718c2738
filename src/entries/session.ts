// SessionStart entry (hooks/session.js), registered for compaction only: gives Claude the loop again.
import { concernsLoop } from "../app/concernsLoop.js";
import { processContext } from "./processContext.js";

const ctx = processContext();
const stdin = ctx.readStdin();
process.exitCode = 0;
if (concernsLoop(stdin, ctx)) {
  import("../app/sessionHook.js")
    .then(({ runSessionHook }) => {
      const out = runSessionHook(stdin, ctx);
      if (out) ctx.out(out);
    })
    .catch(() => undefined);
}
