import { renameSync, unlinkSync } from "node:fs";
import { LoopError } from "../core/errors.js";
import type { LoopState } from "../core/fields.js";
import { parseState } from "../core/parseState.js";
import { firstLine } from "../core/renderStatus.js";
import { splitFrontmatter } from "../core/splitFrontmatter.js";
import { appendHistory } from "../io/appendHistory.js";
import { acquireLock } from "../io/lock.js";
import { readStateFile } from "../io/readStateFile.js";
import type { LoopLocation } from "./locate.js";

export interface StopOutcome {
  stopped: boolean;
  /** For the user and for Claude. */
  message: string;
}

/** The goal of a file that may not parse: its body when the frontmatter can be found, else the whole text. */
function goalOf(text: string): string {
  try {
    return splitFrontmatter(text).body;
  } catch {
    return text;
  }
}

/** Appends the `stopped` record that keeps a loop's goal; a history that cannot be written is skipped. */
export function recordStopped(
  where: LoopLocation,
  state: LoopState | undefined,
  goal: string,
  now: number,
  sessionId: string | undefined,
): void {
  try {
    appendHistory(where.historyPath, {
      time: new Date(now).toISOString(),
      session: state?.session_id ?? sessionId,
      iteration: state?.iteration_count ?? 0,
      decision: "end",
      reason: "stopped",
      output_tokens: state?.runtime.output_tokens ?? 0,
      ...(state && { tokens_by_model: state.runtime.tokens_by_model }),
      goal,
      state_file: where.shown,
    });
  } catch {
    // the history is a record, not the loop
  }
}

/**
 * Ends the loop now, from any session: removes the state file under the hooks' lock and records
 * `stopped` with the goal. Deterministic: nothing here depends on the model.
 */
export function stopLoop(where: LoopLocation, now: number, sessionId: string | undefined): StopOutcome {
  if (readStateFile(where.statePath, where.shown).kind === "missing") {
    return { stopped: false, message: `continuation-loop: no loop is running (no ${where.shown}); nothing to stop.` };
  }
  const release = acquireLock(where.statePath);
  if (!release)
    throw new LoopError("LOOP_LOCKED", "the state file is locked by a running hook", {
      file: `${where.shown}.lock`,
      expected: "the lock to be released; try /loop-stop again",
    });
  try {
    const read = readStateFile(where.statePath, where.shown);
    if (read.kind === "missing")
      return { stopped: false, message: `continuation-loop: no loop is running (no ${where.shown}); nothing to stop.` };
    let state: LoopState | undefined;
    try {
      state = parseState(read.text, where.shown);
    } catch {
      state = undefined; // an invalid file still stops: the user asked for it
    }
    // A file the hooks cannot understand is never deleted: it is moved aside, byte for byte.
    const aside = state ? undefined : `${where.statePath}.stopped-${new Date(now).toISOString().replace(/[:.]/g, "-")}`;
    if (aside) renameSync(where.statePath, aside);
    else unlinkSync(where.statePath);
    const goal = state?.body ?? goalOf(read.text);
    recordStopped(where, state, goal, now, sessionId);
    const at = state ? ` at iteration ${state.iteration_count}/${state.max_iterations}` : "";
    const gone = aside
      ? `was invalid, so it was moved aside unchanged to ${where.shown}${aside.slice(where.statePath.length)}`
      : "was removed";
    return {
      stopped: true,
      message: `continuation-loop: loop stopped by the user${at}; ${where.shown} ${gone} (goal: "${firstLine(goal, 80)}", kept in the history).`,
    };
  } finally {
    release();
  }
}
