// Which loop went into the background with its session (docs/REFERENCE.md "Leave it running"), looked up on the
// idle path of a background session's Stop: no schema, no lock; the takeover's transaction checks again.
import { readBackgroundJob } from "../core/handover.js";
import type { Env, FoundLoop } from "../core/loopFiles.js";
import { readContinuedIn } from "../io/readContinuedIn.js";
import { HANDOVER_WAIT_POINT, reachCrashPoint } from "../io/crashPoint.js";
import { readProcessRunning, waitForProcessEnd } from "../io/processes.js";
import { peekSidecar } from "../io/sidecarFile.js";

/** A loop bound to session `from`, which Claude Code went on with in this session. */
export interface Handover {
  loop: FoundLoop;
  from: string;
}

/**
 * In a background session that owns no loop, a loop of another session that was continued in this one: the
 * other session's transcript ends with Claude Code's `continued-in` record naming this session (2.1.332), or
 * its loop's sidecar names this background session and its process has ended (2.1.197, said at this
 * session's start: `recordContinuedInJob`). Undefined elsewhere: a fork a person makes (`--fork-session`)
 * does not take the loop.
 */
export function findHandover(
  loops: readonly FoundLoop[],
  sessionId: string | undefined,
  transcriptPath: string | undefined,
  env: Env,
): Handover | undefined {
  const job = readBackgroundJob(env);
  if (job === undefined || sessionId === undefined || !sessionId.startsWith(job)) return undefined;
  for (const loop of loops) {
    const from = loop.owner;
    if (from === undefined || from === sessionId) continue;
    if (transcriptPath && readContinuedIn(transcriptPath, from) === sessionId) return { loop, from };
    const sidecar = peekSidecar(loop.file.sidecarPath);
    const owner = (sidecar?.loop as { session_id?: unknown } | undefined)?.session_id;
    const ownerRef = typeof sidecar?.owner_pid === "string" ? sidecar.owner_pid : "";
    if (owner === from && sidecar?.continued_in_job === job && waitForTerminalEnd(ownerRef)) return { loop, from };
  }
  return undefined;
}

/**
 * How long a background session's first Stop waits for the terminal's Claude Code to end after `/background`
 * (2.1.197): long enough for the terminal's SessionEnd hooks and a loaded machine's tear-down. A copy a person
 * makes of a session still running waits this long once, then leaves the loop where it is.
 */
const TERMINAL_END_WAIT_MS = 30_000;

/**
 * The terminal's Claude Code ends by itself after `/background`, but the fork's first turn may be quicker: the
 * loop is taken once it has ended, so that two sessions never drive it. True at once for no record or an ended process.
 */
function waitForTerminalEnd(ref: string): boolean {
  if (!ref || !readProcessRunning(ref)) return true;
  reachCrashPoint(HANDOVER_WAIT_POINT);
  return waitForProcessEnd(ref, TERMINAL_END_WAIT_MS);
}
