import { editFrontmatter } from "../core/editFrontmatter.js";
import type { LoopFile } from "../core/loopFiles.js";
import { readLastMessage } from "../io/readTranscript.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { CommandAnswer } from "./slashCommands.js";

/** Claude Code's record of an Esc: a user line `[Request interrupted by user]` (or `… for tool use]`). */
const INTERRUPTED = "[Request interrupted by user";

/**
 * The user pressed Esc during the loop's last turn (README "Pausing"): before their next prompt
 * reaches Claude, the loop is paused (`active: false`) and they are told once how to resume it.
 * Without this, the Stop after their prompt would send Claude straight back into the loop.
 */
export function pauseOnInterrupt(file: LoopFile, sessionId: string, transcriptPath: string): CommandAnswer | undefined {
  const last = readLastMessage(transcriptPath);
  if (last?.type !== "user" || !last.texts.some((text) => text.trimStart().startsWith(INTERRUPTED))) return undefined;
  const outcome = updateStateFile(file.statePath, file.shown, (snapshot) => {
    if (snapshot.kind !== "found" || !snapshot.state.active || snapshot.state.session_id !== sessionId) {
      return { result: undefined };
    }
    const { iteration_count: n, max_iterations: max } = snapshot.state;
    return {
      change: { write: editFrontmatter(snapshot.text, { active: false }, file.shown) },
      result: {
        systemMessage: `continuation-loop: loop paused at iteration ${n}/${max} because you interrupted it; /loop-resume (or active: true) resumes it.`,
        additionalContext: `[continuation-loop] The user interrupted the continuation loop (${file.shown}); it is paused. Answer the user's prompt; do not go back to the loop's goal unless they ask.`,
      },
    };
  });
  return outcome.kind === "done" ? outcome.result : undefined;
}
