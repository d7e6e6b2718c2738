import { editFrontmatter } from "../core/frontmatter.js";
import { LoopError } from "../core/errors.js";
import { renderSiblingCommand } from "../core/loopCommand.js";
import type { LoopFile } from "../core/loopFiles.js";
import { tryAppendHistory } from "../io/history.js";
import { updateStateFile } from "../io/updateStateFile.js";

// A torn sidecar is said in the command's output (docs/REFERENCE.md "Messages you may see").
const TELLS_TORN = { tellsTorn: true };
const NOTHING = "continuation-loop: no loop is running; nothing to pause.";

/**
 * `/loop-pause` and `continuation-loop pause` (docs/REFERENCE.md "Pausing"): `active: false`, file, counters and
 * owner kept; resume (named as `command` was typed) or `active: true` resumes it. One line for the user; a LoopError
 * when the loop could not be paused (an invalid file, a lock or a folder it cannot write), so the helper exits 1, as
 * stop does.
 */
export function pauseLoop(file: LoopFile, sessionId: string | undefined, now: number, command: string): string {
  const resume = renderSiblingCommand(command, "resume", file.name);
  const outcome = updateStateFile<string | LoopError>(
    file,
    (snapshot) => {
      if (snapshot.kind === "missing") return { result: NOTHING };
      if (snapshot.kind === "invalid") return { result: snapshot.error };
      const { state, text } = snapshot;
      const where = `iteration ${state.iteration_count}/${state.max_iterations} (${file.shown})`;
      if (!state.active) return { result: `continuation-loop: the loop is already paused at ${where}.` };
      return {
        change: {
          write: editFrontmatter(text, { active: false }, file.shown, snapshot.frontmatter),
          state: { ...state, active: false },
        },
        result: `continuation-loop: loop paused at ${where}; ${resume} (or active: true) resumes it.`,
        onCommit: () =>
          tryAppendHistory(file.historyPath, {
            time: new Date(now).toISOString(),
            state_file: file.shown,
            session: state.session_id ?? sessionId,
            iteration: state.iteration_count,
            decision: "pause",
            reason: "paused",
          }),
      };
    },
    TELLS_TORN,
  );
  if (outcome.kind === "gone") return NOTHING;
  if (outcome.kind === "failed")
    throw new LoopError("LOOP_LOCKED", `${outcome.message}; the loop was not paused`, {
      ...(outcome.locked && { expected: "the lock to be released; try again in a moment" }),
    });
  if (outcome.result instanceof LoopError) throw outcome.result;
  return outcome.tornSidecar ? `${outcome.result}\n${outcome.tornSidecar}` : outcome.result;
}
