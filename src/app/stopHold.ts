import { readWakeAt, renderHoldMessage } from "../core/background.js";
import { renderPlanHold } from "../core/planMode.js";
import { readTimeUpAt } from "../core/duration.js";
import { decideClaimUpdates, type StopDecision } from "../core/decideStop.js";
import { editFrontmatter } from "../core/frontmatter.js";
import type { StopInput } from "../core/hookInput.js";
import type { HistoryRecord } from "../core/history.js";
import type { LoopFile } from "../core/loopFiles.js";
import type { LoopState } from "../core/parseState.js";
import { tryAppendHistory } from "../io/history.js";
import { SILENT, tell } from "./context.js";

type Hold = Extract<StopDecision, { kind: "hold" }>;

/**
 * The state file's change at a Stop that does not count its turn (a hold, plan mode, a pause): a first Stop's claim
 * and any `extra` fields, or none.
 */
export function renderUncountedChange(
  state: LoopState,
  text: string,
  file: LoopFile,
  input: StopInput,
  now: number,
  extra: Record<string, unknown> = {},
) {
  const updates = { ...decideClaimUpdates(state, input.session_id, now), ...extra };
  if (Object.keys(updates).length === 0) return {};
  return {
    change: { write: editFrontmatter(text, updates, file.shown), state: { ...state, ...updates } as LoopState },
  };
}

/** The history's fields of a hold: the tasks, and when the module wakes the session if it does. */
export function renderHoldRecord(state: LoopState, decision: Hold): Partial<HistoryRecord> {
  const { hold } = decision;
  return {
    tasks: hold.tasks.map(({ id, type, description }) => ({ id, type, description })),
    wait_s: state.background_wait,
    ...(hold.route === "module" && { until: new Date(readWakeAt(hold, state.background_wait)).toISOString() }),
  };
}

/**
 * Background tasks still run (docs/REFERENCE.md "Background work"): the turn ends, its count unchanged,
 * and Claude Code's notification of a task's end starts the next one. The sidecar keeps the hold (the
 * module wakes the session from it when `background_wait` passes); the history gets one line per hold,
 * at its first Stop; the person one line saying what the loop waits for and what ends the wait.
 */
export function holdForBackground(
  decision: Hold,
  state: LoopState,
  text: string,
  file: LoopFile,
  input: StopInput,
  now: number,
  record: HistoryRecord,
) {
  // A first Stop still claims the loop; the iteration is not counted.
  const uncounted = renderUncountedChange(state, text, file, input, now);
  const iteration = { n: state.iteration_count, max: state.max_iterations };
  return {
    ...uncounted,
    runtime: decision.runtime,
    result: tell(
      renderHoldMessage(
        decision.hold,
        state.background_wait,
        iteration,
        readTimeUpAt(uncounted.change?.state ?? state),
      ),
    ),
    onCommit: () => {
      if (decision.started) tryAppendHistory(file.historyPath, record);
    },
  };
}

/**
 * Plan mode (docs/REFERENCE.md "Plan mode"): Claude cannot edit there and only the person leaves it, so the turn
 * ends, its count unchanged; the loop goes on at the first Stop outside plan mode. Told once, with the bell, and
 * recorded once per hold, at its first Stop.
 */
export function holdForPlan(
  decision: Extract<StopDecision, { kind: "plan" }>,
  state: LoopState,
  text: string,
  file: LoopFile,
  input: StopInput,
  now: number,
  record: HistoryRecord,
) {
  return {
    ...renderUncountedChange(state, text, file, input, now),
    runtime: decision.runtime,
    result: decision.started
      ? tell(
          renderPlanHold({ n: state.iteration_count, max: state.max_iterations }),
          state.notify ? { terminalSequence: "\u0007" } : {},
        )
      : SILENT,
    onCommit: () => {
      if (decision.started) tryAppendHistory(file.historyPath, record);
    },
  };
}
