// The prompt the companion module sends when `background_wait` has passed while the loop waited for
// background tasks (docs/REFERENCE.md "Background work"). Pure.
import { renderGoal } from "./lineBreaks.js";
import { type BackgroundTask, renderTaskNames } from "./background.js";
import { renderDuration } from "./duration.js";
import type { LoopState } from "./parseState.js";
import { BACKGROUND_WAKE_OPENING } from "./protocol.js";
import { renderFinish, renderLimits } from "./renderStop.js";
import type { Runtime } from "./sidecar.js";

/** "build (shell, id b12)": a task as Claude can find it again. */
const renderTask = (task: BackgroundTask) => `${renderTaskNames([task])} (${task.type}, id ${task.id})`;

/**
 * The marker (so it is the loop's own prompt, never a person's), what still runs and that the loop no
 * longer waits for it, the iteration (the held turn was not counted), the limits, the goal and how to finish.
 */
export function renderBackgroundWakePrompt(state: LoopState, runtime: Runtime, now: number): string {
  const tasks = runtime.background_hold?.tasks ?? [];
  const one = tasks.length === 1;
  return [
    `${BACKGROUND_WAKE_OPENING}: background_wait (${renderDuration(state.background_wait)}) passed with ${tasks.length} task${one ? "" : "s"} still running: ${tasks.map(renderTask).join("; ")}. The loop no longer waits for ${one ? "it" : "them"}: check ${one ? "its" : "their"} output if it matters (a server or a watcher may run for good), then go on with the goal.`,
    `Continuation loop: iteration ${state.iteration_count}/${state.max_iterations}, not counted while it waited.`,
    `Limits: ${renderLimits(state, runtime, state.iteration_count, now)}`,
    `Goal:\n${renderGoal(state.body)}`,
    `How to finish:\n${renderFinish(state)}`,
  ].join("\n\n");
}
