import { LoopError } from "../core/errors.js";
import type { LoopState } from "../core/parseState.js";
import type { LoopFile } from "../core/loopFiles.js";
import type { Runtime } from "../core/sidecar.js";
import { renderGoalLine } from "../core/renderStatus.js";
import { renderRecordFields } from "../core/restartRequest.js";
import { splitFrontmatter } from "../core/frontmatter.js";
import { decodeUtf16, readUtf16Order } from "../core/textEncoding.js";
import { tryAppendHistory } from "../io/history.js";
import { updateStateFile } from "../io/updateStateFile.js";

export interface StopOutcome {
  stopped: boolean;
  /** For the user and for Claude. */
  message: string;
}

/**
 * The goal of a file that may not parse: its body when the frontmatter can be found, else the whole text. A UTF-16
 * file (Notepad's "Unicode") is read as such, so that the history keeps its goal, not its bytes as UTF-8.
 */
function goalOf(text: string, bytes: Buffer | undefined): string {
  const order = readUtf16Order(text);
  const readable = order && bytes ? decodeUtf16(bytes, order) : text;
  try {
    return splitFrontmatter(readable).body;
  } catch {
    return readable;
  }
}

/** Appends the `stopped` record that keeps a loop's goal (and its counts, when its file read). */
export function recordStopped(
  file: LoopFile,
  found: { state: LoopState; runtime: Runtime } | undefined,
  goal: string,
  now: number,
  sessionId: string | undefined,
): void {
  const { state, runtime } = found ?? {};
  tryAppendHistory(file.historyPath, {
    time: new Date(now).toISOString(),
    state_file: file.shown,
    session: state?.session_id ?? sessionId,
    iteration: state?.iteration_count ?? 0,
    decision: "end",
    reason: "stopped",
    output_tokens: runtime?.output_tokens ?? 0,
    ...(runtime && { tokens_by_model: runtime.tokens_by_model }),
    goal,
    ...(state && { fields: renderRecordFields(state) }),
  });
}

const nothing = (file: LoopFile) => ({
  stopped: false,
  message: `continuation-loop: no loop is running (no ${file.shown}); nothing to stop.`,
});

/**
 * Ends a loop now, from any session: removes the state file and its sidecar in one state-file
 * transaction and records `stopped` with the goal. A file the hooks cannot understand is never
 * deleted: it is moved aside, byte for byte. Deterministic: nothing here depends on the model.
 */
export function stopLoop(file: LoopFile, now: number, sessionId: string | undefined): StopOutcome {
  const aside = `${file.statePath}.stopped-${new Date(now).toISOString().replace(/[:.]/g, "-")}`;
  const outcome = updateStateFile<StopOutcome | LoopError>(file, (snapshot) => {
    if (snapshot.kind === "missing") return { result: nothing(file) };
    if (snapshot.kind === "invalid" && snapshot.text === undefined) return { result: snapshot.error };
    const found = snapshot.kind === "found" ? snapshot : undefined;
    const state = found?.state;
    const goal = state?.body ?? goalOf(snapshot.text ?? "", snapshot.kind === "invalid" ? snapshot.bytes : undefined);
    const at = state ? ` at iteration ${state.iteration_count}/${state.max_iterations}` : "";
    const gone = state
      ? "was removed"
      : `was invalid, so it was moved aside unchanged to ${file.shown}${aside.slice(file.statePath.length)}`;
    // Stopped from elsewhere: the owner session is told once, at its next Stop (a tombstone).
    const tombstone =
      state?.session_id !== undefined && state.session_id !== sessionId
        ? { reason: "stopped" as const, by: sessionId ?? "a terminal", at: new Date(now).toISOString() }
        : undefined;
    return {
      change: state ? { remove: true, ...(tombstone && { tombstone }) } : { moveTo: aside },
      result: {
        stopped: true,
        message: `continuation-loop: loop stopped by the user${at}; ${file.shown} ${gone} (goal: "${renderGoalLine(goal, 80)}", kept in the history).`,
      },
      onCommit: () => recordStopped(file, found, goal, now, sessionId),
    };
  });
  if (outcome.kind === "gone") return nothing(file);
  if (outcome.kind === "failed")
    throw new LoopError("LOOP_LOCKED", outcome.message, {
      ...(outcome.locked && { expected: "the lock to be released; try again in a moment" }),
    });
  if (outcome.result instanceof LoopError) throw outcome.result;
  // A torn sidecar goes with its loop's files, kept aside: said after the stop's own line.
  const torn = outcome.tornSidecar;
  return torn && outcome.result.stopped
    ? { ...outcome.result, message: `${outcome.result.message}\n${torn}` }
    : outcome.result;
}
