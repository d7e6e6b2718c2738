import type { StopDecision } from "../core/decideStop.js";
import type { StopInput } from "../core/hookInput.js";
import type { HistoryRecord } from "../core/history.js";
import type { LoopFile } from "../core/loopFiles.js";
import type { LoopState } from "../core/parseState.js";
import { tryAppendHistory } from "../io/history.js";
import { tell } from "./context.js";
import { renderUncountedChange } from "./stopHold.js";

type Pause = Extract<StopDecision, { kind: "pause" }>;

/** The history's metric fields for a Stop that ran the metric (docs/REFERENCE.md "Improvement loops"). */
export function renderMetricRecord(state: LoopState, decision: StopDecision): Partial<HistoryRecord> {
  if (state.metric === undefined || (decision.kind === "pause" && decision.reason === "scope")) return {};
  const { metric_last, metric_error, metric_best_iteration } = decision.runtime;
  return {
    metric: metric_last,
    ...(metric_error && { metric_error }),
    ...(metric_best_iteration > 0 && { metric_best_iteration }),
  };
}

function renderPauseMessage(decision: Pause, state: LoopState): string {
  const at = `iteration ${decision.iteration}/${state.max_iterations}`;
  if (decision.reason === "scope") {
    return `continuation-loop: loop paused at ${at} (scope): ${decision.question}. Look at them; /loop-resume accepts the working tree as it stands, or edit scope / max_files_changed and set active: true.`;
  }
  return `continuation-loop: Claude asks: ${decision.question} — the loop waits at ${at}; your next prompt answers it and the loop goes on.`;
}

/**
 * The loop waits for the user, its count unchanged (docs/REFERENCE.md "Pausing"): Claude asked a question
 * (`<loop-pause>`; the next prompt answers it), or the iteration left its scope (`active: false`
 * until /loop-resume). The user sees why, with the bell when `notify` is on.
 */
export function pauseForUser(
  decision: Pause,
  state: LoopState,
  text: string,
  file: LoopFile,
  input: StopInput,
  now: number,
  record: HistoryRecord,
) {
  // A first Stop still claims the loop; the iteration is not counted until the loop goes on.
  return {
    ...renderUncountedChange(state, text, file, input, now, decision.reason === "scope" ? { active: false } : {}),
    // A Stop means the turn went on past any permission prompt.
    runtime: { ...decision.runtime, permission_wait: null },
    result: tell(renderPauseMessage(decision, state), state.notify ? { terminalSequence: "\u0007" } : {}),
    onCommit: () => tryAppendHistory(file.historyPath, record),
  };
}
