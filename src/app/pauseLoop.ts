import { editFrontmatter } from "../core/frontmatter.js";
import type { LoopFile } from "../core/loopFiles.js";
import { tryAppendHistory } from "../io/history.js";
import { updateStateFile } from "../io/updateStateFile.js";

/**
 * `/loop-pause` and `continuation-loop pause` (docs/REFERENCE.md "Pausing"): `active: false`, file, counters and
 * owner kept; `/loop-resume` or `active: true` resumes it. One line for the user.
 */
export function pauseLoop(file: LoopFile, sessionId: string | undefined, now: number): string {
  const outcome = updateStateFile<string>(file, (snapshot) => {
    if (snapshot.kind === "missing") return { result: "continuation-loop: no loop is running; nothing to pause." };
    if (snapshot.kind === "invalid") return { result: `continuation-loop: ${snapshot.error.describe()}.` };
    const { state, text } = snapshot;
    const where = `iteration ${state.iteration_count}/${state.max_iterations} (${file.shown})`;
    if (!state.active) return { result: `continuation-loop: the loop is already paused at ${where}.` };
    return {
      change: {
        write: editFrontmatter(text, { active: false }, file.shown, snapshot.frontmatter),
        state: { ...state, active: false },
      },
      result: `continuation-loop: loop paused at ${where}; /loop-resume (or active: true) resumes it.`,
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
  });
  if (outcome.kind === "done") return outcome.result;
  if (outcome.kind === "gone") return "continuation-loop: no loop is running; nothing to pause.";
  return `continuation-loop: ${outcome.message}; the loop was not paused.`;
}
