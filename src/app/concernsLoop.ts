import { chooseSessionLoop, resolveProjectRoot } from "../core/loopFiles.js";
import { type LoopScan, scanLoops } from "../io/listLoops.js";
import { peekJson, stringField } from "../io/readStdin.js";
import type { Context } from "./context.js";

/**
 * The idle path of a hook: does this input concern a loop at all? Returns the scan when it does. JSON.parse and a look into
 * `.claude/` only, so a session without a loop pays for nothing else (no YAML, no zod, no
 * transcript). Bad input with a loop present counts: the full hook says what is wrong.
 */
export function concernsLoop(stdin: string, ctx: Context): LoopScan | undefined {
  const input = peekJson(stdin);
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const scan = scanLoops(root, ctx.env);
  if (!input) return scan.loops.length > 0 ? scan : undefined;
  const sessionId = stringField(input, "session_id");
  const concerned =
    chooseSessionLoop(scan.loops, sessionId) !== undefined || scan.orphans.some((o) => o.owner === sessionId);
  return concerned ? scan : undefined;
}
