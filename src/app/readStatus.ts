import { parseChecklist, renderChecklistProgress } from "../core/checklist.js";
import { LoopError } from "../core/errors.js";
import type { LoopState } from "../core/parseState.js";
import type { Env, FoundLoop, LoopFile } from "../core/loopFiles.js";
import { parseState } from "../core/parseState.js";
import { clipRow, renderNoLoop, renderOtherLoop, renderStatus } from "../core/renderStatus.js";
import { readHistory } from "../io/history.js";
import { scanLoops } from "../io/listLoops.js";
import { readChecklistText } from "../io/readProjectFiles.js";
import { readStateSettled } from "../io/readStateFile.js";
import { readHoldNow, readPermissionWaitNow } from "../io/readTranscript.js";
import { readSidecar } from "../io/sidecarFile.js";
import type { Runtime } from "../core/sidecar.js";

/**
 * The sidecar as it stands now for the hold it records, if any: a held task's notification started a turn (the
 * loop waits for nothing; that turn's Stop decides again), or the turn after the hold was interrupted (Esc). The
 * session transcript's end since the hold's Stop is read only while a hold is recorded (docs/REFERENCE.md
 * "Background work").
 */
export function readHeldRuntime(runtime: Runtime): { runtime: Runtime; interrupted: boolean } {
  const hold = runtime.background_hold;
  if (!hold) return { runtime, interrupted: false };
  const ids = hold.tasks.map((task) => task.id);
  const now = readHoldNow(runtime.transcript, runtime.transcript_offset, ids);
  return now === "open"
    ? { runtime, interrupted: false }
    : { runtime: { ...runtime, background_hold: null }, interrupted: now === "interrupted" };
}

/** Decisions shown under "last decisions". */
const RECENT = 5;

/** A loop's state, or undefined when its file is missing; LoopError when it is invalid (not an editor's save caught midway). */
function readLoopState(file: LoopFile): LoopState | undefined {
  return readStateSettled(file.statePath, file.shown, file.sidecarPath, (text) => parseState(text, file.shown));
}

function renderOne(
  file: LoopFile,
  state: LoopState,
  now: number,
  sessionId: string | undefined,
  command: string,
  others?: string,
  columns?: number,
): string {
  const history = readHistory(file.historyPath).filter(
    (r) => r.state_file === undefined || r.state_file === file.shown,
  );
  // Decisions of this loop only: those after its file's last loop end, by its owner.
  const lastEnd = history.map((r) => r.decision).lastIndexOf("end");
  const recent = history
    .slice(lastEnd + 1)
    .filter((r) => !state.session_id || !r.session || r.session === state.session_id);
  const held = readHeldRuntime(readSidecar(file.sidecarPath, state));
  const read = held.runtime;
  // Esc or "No" at the prompt ends the turn with no Stop to clear the wait, and after "Yes" the turn goes on until
  // one: the transcripts say which.
  const wait = read.permission_wait && readPermissionWaitNow(read.permission_wait);
  const runtime = wait === "answered" ? { ...read, permission_wait: null } : read;
  return renderStatus(state, runtime, file.shown, recent.slice(-RECENT), now, sessionId, {
    ...(wait === "closed" && { permissionClosed: true }),
    ...(held.interrupted && { holdInterrupted: true }),
    records: recent,
    ...(state.checklist && { checklist: readChecklistProgress(file, state.checklist) }),
    ...(others && { others }),
    ...(columns && { columns }),
    command,
    name: file.name,
  });
}

/** "3/5 done · next: …", or what is wrong with the checklist. */
function readChecklistProgress(file: LoopFile, checklist: string): string {
  try {
    const list = parseChecklist(readChecklistText(file.root, checklist, file.shown));
    return list.total > 0
      ? renderChecklistProgress(list)
      : "no task boxes (the loop does not continue until it has some)";
  } catch (error) {
    return error instanceof LoopError ? error.message : String(error);
  }
}

/** "  other loops: docs, fix-auth (/loop-status --all shows each)": one row. */
function renderOtherLoops(others: FoundLoop[], command: string): string {
  const names = others.map(({ file }) => file.name).join(", ");
  return `other loops: ${names} (${command} --all shows a row for each, --name NAME one in full)`;
}

function otherLines(others: FoundLoop[], sessionId: string | undefined, command: string): string[] {
  return others.map(({ file }) => {
    try {
      return renderOtherLoop(file.name, readLoopState(file), sessionId, command);
    } catch {
      return renderOtherLoop(file.name, undefined, sessionId, command);
    }
  });
}

/**
 * The /loop-status text: the chosen loop (`chooseTargetLoop`) in full, at most 8 rows with a few words on the
 * project's other loops; with `all`, a row for each after them. Throws LoopError (naming file, field, line) when
 * the shown loop is invalid.
 */
export function readStatus(
  file: LoopFile,
  env: Env,
  now: number,
  sessionId: string | undefined,
  all: boolean,
  /** The status command as the person typed it: the commands the text names are its siblings. */
  command: string,
  columns?: number,
): string {
  const others = scanLoops(file.root, env).loops.filter((loop) => loop.file.statePath !== file.statePath);
  // A row per other loop with --all; otherwise a few words within the loop's rows: the one other loop's row, or
  // their names (README "Commands").
  const rows = all || others.length === 1 ? otherLines(others, sessionId, command) : [];
  const note =
    all || !others.length ? undefined : others.length === 1 ? rows[0]?.trim() : renderOtherLoops(others, command);
  const state = readLoopState(file);
  if (!state) {
    const last = [...readHistory(file.historyPath)].reverse().find((r) => r.decision === "end");
    return [renderNoLoop(file.shown, last, command), ...(note ? [clipRow(`  ${note}`)] : rows)].join("\n");
  }
  return [renderOne(file, state, now, sessionId, command, note, columns), ...(all ? rows : [])].join("\n");
}
