import { chooseSessionLoop, type FoundLoop, resolveProjectRoot } from "../core/loopFiles.js";
import { type HookStdin, stringField } from "../core/hookStdin.js";
import { type LoopScan, scanLoops } from "../io/listLoops.js";
import type { Context } from "./context.js";

/** What the idle check found: the project root, its loops, and the session's loop if it has one. */
export interface LoopLookup extends LoopScan {
  root: string;
  loop: FoundLoop | undefined;
  /**
   * A background session's Stop that owns no loop, where another session's loop runs: that loop may have come
   * with the session this one continues (`/background`); the active path looks (src/app/findHandover.ts).
   */
  handover?: true;
}

/**
 * The idle path of a hook: does this input concern a loop at all? Returns what it found when it
 * does. A look into `.claude/` only, so a session without a loop pays for nothing else (no YAML,
 * no zod, no transcript). Bad input with a loop present counts: the full hook says what is wrong. For a
 * `stop` in a background session, another session's loop counts too: it may be this one's now (`/background`).
 */
export function concernsLoop(stdin: HookStdin, ctx: Context, stop = false): LoopLookup | undefined {
  const input = stdin.json;
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const scan = scanLoops(root, ctx.env);
  const sessionId = stringField(input, "session_id");
  const loop = chooseSessionLoop(scan.loops, sessionId, scan.orphans);
  if (!input) return scan.loops.length > 0 ? { ...scan, root, loop } : undefined;
  const concerned = loop !== undefined || scan.orphans.some((o) => o.owner === sessionId);
  if (concerned) return { ...scan, root, loop };
  const handover =
    stop && !!ctx.env.CLAUDE_JOB_DIR && scan.loops.some((l) => l.owner !== undefined && l.owner !== sessionId);
  return handover ? { ...scan, root, loop, handover } : undefined;
}
