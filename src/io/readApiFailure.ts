// The API error that ended a session's last turn, from the end of its transcript (bounded), for `continuation-loop
// run` (docs/HEADLESS.md "An API error that no restart mends"): Claude Code writes it there whatever its output format.
import type { ApiFailure } from "../core/apiFailure.js";
import { parseTranscriptLine } from "../core/transcript.js";
import { findSessionTranscript } from "./claudeProcess.js";
import { readLinesFromEnd } from "./readLines.js";
import { MAX_SCAN_BACK, readTranscriptSize } from "./readTranscript.js";

/** How far a session's transcript reaches now (0 before Claude Code saved it): a start's own lines come after. */
export function readSessionSize(configDir: string, sessionId: string): number {
  const path = findSessionTranscript(configDir, sessionId);
  return path === undefined ? 0 : readTranscriptSize(path);
}

/**
 * The main thread's last reply written from byte `from` on: the API error Claude Code put in its place, `null`
 * for a reply that is no error, undefined when there is no such reply (no transcript, nothing written).
 */
export function readApiFailure(configDir: string, sessionId: string, from: number): ApiFailure | null | undefined {
  const path = findSessionTranscript(configDir, sessionId);
  if (path === undefined) return undefined;
  for (const { entry, start } of readLinesFromEnd(path, MAX_SCAN_BACK, parseTranscriptLine)) {
    if (start < from) return undefined;
    if (entry?.type === "assistant" && !entry.isSidechain) return entry.apiError ?? null;
  }
  return undefined;
}
