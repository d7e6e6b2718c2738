import { parseState } from "../core/parseState.js";
import { renderStatusline } from "../core/renderStatus.js";
import { readStateFile } from "../io/readStateFile.js";
import { EXIT, type CliContext } from "./context.js";
import { locateLoop } from "./locate.js";

/** Fields of Claude Code's statusLine input that locate the project and session. */
function peek(stdin: string): { sessionId?: string; dir?: string } {
  try {
    const raw = JSON.parse(stdin) as {
      session_id?: unknown;
      cwd?: unknown;
      workspace?: { project_dir?: unknown; current_dir?: unknown };
    };
    const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
    const dir = str(raw?.workspace?.project_dir) ?? str(raw?.cwd) ?? str(raw?.workspace?.current_dir);
    return { ...(str(raw?.session_id) && { sessionId: str(raw.session_id) }), ...(dir && { dir }) };
  } catch {
    return {};
  }
}

/** One line for the statusLine setting; prints nothing without a loop and never fails. */
export function runStatusline(_argv: string[], ctx: CliContext): number {
  try {
    const input = peek(ctx.readStdin());
    const env = input.dir ? { ...ctx.env, CLAUDE_PROJECT_DIR: input.dir } : ctx.env;
    const where = locateLoop(env, undefined, ctx.cwd);
    const read = readStateFile(where.statePath, where.shown);
    if (read.kind === "missing") return EXIT.ok;
    ctx.out(`${renderStatusline(parseState(read.text, where.shown), ctx.now(), input.sessionId)}\n`);
  } catch {
    ctx.out("⟳ loop: state file invalid (run /loop-status)\n");
  }
  return EXIT.ok;
}
