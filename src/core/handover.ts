// A loop follows its session into the background (docs/REFERENCE.md "Leave it running"): Claude Code's
// `/background` forks the session into a background session under a new id and ends the terminal's. What says
// which session continued which, as Claude Code records it (measured, docs/ARCHITECTURE.md "Background
// sessions"). Pure.
import type { Env } from "./loopFiles.js";

/**
 * The short id of the background session this hook runs in: the last part of `$CLAUDE_JOB_DIR`, which
 * Claude Code sets only in background sessions (`~/.claude/jobs/<short>`); the first 8 characters of its
 * session id. Undefined outside a background session.
 */
export function readBackgroundJob(env: Env): string | undefined {
  const dir = env.CLAUDE_JOB_DIR;
  if (!dir) return undefined;
  const short = dir
    .replace(/[/\\]+$/, "")
    .split(/[/\\]/)
    .pop();
  return short && /^[0-9a-f]{8}$/.test(short) ? short : undefined;
}

/**
 * A transcript line that says session `from` was continued in another (2.1.332 writes
 * `{"type":"continued-in","sessionId":…,"continuedInSessionId":…}` into the forked-from session's
 * transcript when `/background` forks it) → that other session's id; undefined for any other line.
 */
export function parseContinuedIn(line: string, from: string): string | undefined {
  if (!line.includes('"continued-in"')) return undefined;
  try {
    const entry = JSON.parse(line) as { type?: unknown; sessionId?: unknown; continuedInSessionId?: unknown };
    if (entry.type !== "continued-in" || entry.sessionId !== from) return undefined;
    return typeof entry.continuedInSessionId === "string" ? entry.continuedInSessionId : undefined;
  } catch {
    return undefined;
  }
}
