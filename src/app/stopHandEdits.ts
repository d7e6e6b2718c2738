// A pause or a resume made by editing the state file's `active` (docs/REFERENCE.md "Steering a running loop"):
// no command saw it happen, so the owner's next Stop records it, as /loop-pause and /loop-resume record theirs.
import type { HistoryRecord } from "../core/history.js";
import type { LoopFile } from "../core/loopFiles.js";
import type { LoopState } from "../core/parseState.js";
import { readModifiedTime } from "../io/readStateFile.js";

const handRecord = (
  state: LoopState,
  file: LoopFile,
  time: number,
  decision: "pause" | "resume",
  reason: string,
): HistoryRecord => ({
  time: new Date(time).toISOString(),
  state_file: file.shown,
  session: state.session_id,
  iteration: state.iteration_count,
  decision,
  reason,
});

/**
 * The owner's Stop found its loop paused (`active: false`) with no pause on record since it last ran: the
 * person paused it by hand. The pause record, once; undefined when the loop's last record is a pause already.
 */
export function renderHandPause(
  state: LoopState,
  file: LoopFile,
  previous: HistoryRecord | undefined,
  now: number,
): HistoryRecord | undefined {
  if (previous === undefined || previous.decision === "pause") return undefined;
  return handRecord(state, file, now, "pause", "active_false");
}

/**
 * A Stop of a running loop whose last record is a pause: the person set `active: true` by hand. The resume
 * record, timed when the file was saved (the turns meanwhile were theirs), so the iteration's time starts
 * there, not at the pause; undefined when the last record is no pause.
 */
export function renderHandResume(
  state: LoopState,
  file: LoopFile,
  previous: HistoryRecord | undefined,
  now: number,
): HistoryRecord | undefined {
  if (previous?.decision !== "pause") return undefined;
  const paused = Date.parse(previous.time);
  const saved = readModifiedTime(file.statePath) ?? now;
  return handRecord(state, file, Math.min(now, Math.max(paused, saved)), "resume", "active_true");
}
