// The API error that ended a session's last turn, from the end of its transcript (bounded), for `continuation-loop
// run` (docs/HEADLESS.md "An API error that no restart mends"): Claude Code writes it there whatever its output format.
import { statSync } from "node:fs";
import { type ApiFailure, parseApiFailureLine } from "../core/apiFailure.js";
import { findSessionTranscript } from "./claudeProcess.js";
import { readLinesFromEnd } from "./readLines.js";
import { MAX_SCAN_BACK } from "./readTranscript.js";

/** How far a session's transcript reaches now (0 before Claude Code saved it): a start's own lines come after. */
export function readTranscriptSize(configDir: string, sessionId: string): number {
  const path = findSessionTranscript(configDir, sessionId);
  try {
    return path === undefined ? 0 : statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * The main thread's last reply written from byte `from` on: the API error Claude Code put in its place, `null`
 * for a reply that is no error, undefined when there is no such reply (no transcript, nothing written).
 */
export function readApiFailure(configDir: string, sessionId: string, from: number): ApiFailure | null | undefined {
  const path = findSessionTranscript(configDir, sessionId);
  if (path === undefined) return undefined;
  for (const { entry, start } of readLinesFromEnd(path, MAX_SCAN_BACK, parseApiFailureLine)) {
    if (start < from) return undefined;
    if (entry !== undefined) return entry;
  }
  return undefined;
}
