import { editFrontmatter } from "../core/frontmatter.js";
import type { LoopFile } from "../core/loopFiles.js";
import { tryAppendHistory } from "../io/history.js";
import { type StateOutcome, updateStateFile } from "../io/updateStateFile.js";
import type { CommandAnswer } from "./slashCommands.js";

// A torn sidecar is said in the prompt's answer (docs/REFERENCE.md "Messages you may see").
const TELLS_TORN = { tellsTorn: true };

/**
 * The transaction's answer, with the line about a torn sidecar it kept aside first; when the loop's files could
 * not be written (a full disk), the line saying so and what did not happen (`not`).
 */
function renderOutcome(outcome: StateOutcome<CommandAnswer | undefined>, not: string): CommandAnswer | undefined {
  if (outcome.kind === "failed" && !outcome.locked)
    return { systemMessage: `continuation-loop: ${outcome.message}; ${not}.` };
  if (outcome.kind !== "done") return undefined;
  const line = outcome.tornSidecar;
  if (line === undefined) return outcome.result;
  const told = outcome.result?.systemMessage;
  return { ...outcome.result, systemMessage: told ? `${line}\n${told}` : line };
}

/**
 * The user pressed Esc during the loop's last turn (docs/REFERENCE.md "Pausing"; the caller read the transcript):
 * before their next prompt reaches Claude, the loop is paused (`active: false`) and they are told once
 * how to resume it. Without this, the Stop after their prompt would send Claude straight back into the loop. The
 * history records the pause, as it does `/loop-pause`. A loop waiting in plan mode is not paused: it drives no turn.
 */
export function pauseOnInterrupt(file: LoopFile, sessionId: string, now: number): CommandAnswer | undefined {
  const outcome = updateStateFile(
    file,
    (snapshot) => {
      if (snapshot.kind !== "found" || !snapshot.state.active || snapshot.state.session_id !== sessionId) {
        return { result: undefined };
      }
      // Waiting in plan mode, the turns are the person's: a rejected plan or an Esc there leaves the loop waiting.
      if (snapshot.runtime.plan_hold)
        return { runtime: { ...snapshot.runtime, permission_wait: null }, result: undefined };
      const { iteration_count: n, max_iterations: max } = snapshot.state;
      return {
        change: {
          write: editFrontmatter(snapshot.text, { active: false }, file.shown, snapshot.frontmatter),
          state: { ...snapshot.state, active: false },
        },
        // The turn an Esc or "No" at a permission prompt ended waits on nothing now.
        runtime: { ...snapshot.runtime, permission_wait: null },
        result: {
          systemMessage: `continuation-loop: loop paused at iteration ${n}/${max} because you interrupted it; /loop-resume (or active: true) resumes it.`,
          additionalContext: `[continuation-loop] The user interrupted the continuation loop (${file.shown}); it is paused. Answer the user's prompt; do not go back to the loop's goal unless they ask.`,
        },
        onCommit: () =>
          tryAppendHistory(file.historyPath, {
            time: new Date(now).toISOString(),
            state_file: file.shown,
            session: sessionId,
            iteration: n,
            decision: "pause",
            reason: "interrupted",
          }),
      };
    },
    TELLS_TORN,
  );
  return renderOutcome(outcome, "the loop was not paused: /loop-pause pauses it");
}

/**
 * Claude asked the user (`<loop-pause>`) and this prompt of theirs is the answer (docs/REFERENCE.md "Pausing"):
 * the loop goes on, and Claude is told to answer and then get back to the goal; a loop paused by hand meanwhile stays paused.
 */
export function resumeOnAnswer(file: LoopFile, sessionId: string, now: number): CommandAnswer | undefined {
  const outcome = updateStateFile(
    file,
    (snapshot) => {
      if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId) return { result: undefined };
      const { state, runtime } = snapshot;
      const question = runtime.pause?.reason === "question" ? runtime.pause.text : undefined;
      if (question === undefined) return { result: undefined };
      // Paused by hand meanwhile (`active: false`): the answer reaches Claude, and the loop stays paused.
      if (!state.active)
        return {
          result: {
            systemMessage: `continuation-loop: your answer goes to Claude; the loop stays paused (active: false in ${file.shown}) until /loop-resume.`,
            additionalContext: `[continuation-loop] This prompt answers your question ("${question}"). The continuation loop is paused: answer it, and do not go back to the loop's goal.`,
          },
          runtime: { ...runtime, pause: null },
        };
      return {
        result: {
          systemMessage: "continuation-loop: your answer goes to Claude, and the loop goes on.",
          additionalContext: `[continuation-loop] This prompt answers your question ("${question}"). Answer it, then go on with the continuation loop's goal (${file.shown}, iteration ${state.iteration_count}/${state.max_iterations}).`,
        },
        runtime: { ...runtime, pause: null },
        onCommit: () => {
          tryAppendHistory(file.historyPath, {
            time: new Date(now).toISOString(),
            state_file: file.shown,
            session: sessionId,
            iteration: state.iteration_count,
            decision: "resume",
            reason: "answered",
          });
        },
      };
    },
    TELLS_TORN,
  );
  return renderOutcome(outcome, "the loop stays paused: /loop-resume resumes it");
}
