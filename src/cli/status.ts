import { parseState } from "../core/parseState.js";
import { renderNoLoop, renderStatus } from "../core/renderStatus.js";
import { readHistory } from "../io/readHistory.js";
import { readStateFile } from "../io/readStateFile.js";
import type { LoopLocation } from "./locate.js";

/** Decisions shown under "last decisions". */
const RECENT = 5;

/** The /loop-status text. Throws LoopError (naming file, field, line) when the state file is invalid. */
export function readStatus(
  where: LoopLocation,
  now: number,
  sessionId: string | undefined,
): { running: boolean; text: string } {
  const read = readStateFile(where.statePath, where.shown);
  const history = readHistory(where.historyPath);
  if (read.kind === "missing") {
    const last = [...history].reverse().find((r) => r.decision === "end");
    return { running: false, text: renderNoLoop(where.shown, last) };
  }
  const state = parseState(read.text, where.shown);
  // Decisions of this loop only: those after the last loop end, by its owner (when known).
  const lastEnd = history.map((r) => r.decision).lastIndexOf("end");
  const recent = history
    .slice(lastEnd + 1)
    .filter((r) => !state.session_id || !r.session || r.session === state.session_id);
  return { running: true, text: renderStatus(state, where.shown, recent.slice(-RECENT), now, sessionId) };
}
