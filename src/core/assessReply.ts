import type { Checklist } from "./checklist.js";
import { hashText } from "./hash.js";
import { matchPromise, normalizeText, parsePauseRequest } from "./matchPromise.js";
import type { LoopState } from "./parseState.js";
import type { Runtime } from "./sidecar.js";

/** What a Stop's reply says, worked out once: the evidence to gather follows from it. */
export interface ReplyAssessment {
  reply: string;
  /** The promise phrase the reply carries, if any. */
  promise: string | undefined;
  /** The question of a `<loop-pause>` tag: the loop waits for the user instead of continuing. */
  pauseQuestion: string | undefined;
  /** Fingerprint of the reply, for stall detection. */
  turn: string;
  /** Completion is due (the promise's streak reaches the threshold, every box is checked, `until` passed): the gates are checked. */
  due: boolean;
  /** Read the working tree only when the reply repeats the last one (a stall is possible). */
  needsTree: boolean;
  needsVerify: boolean;
  needsTodos: boolean;
}

/** Every box checked (a checklist without boxes is refused before it gets here). */
export const allChecked = (list: Checklist | undefined) =>
  list !== undefined && list.total > 0 && list.done === list.total;

/**
 * The reply (and the checklist, and whether the metric reached its target, when the loop has them) →
 * the promise, its fingerprint and the evidence the decision will need. Pure.
 */
export function assessReply(
  state: LoopState,
  runtime: Runtime,
  reply: string,
  checklist?: Checklist,
  metricReached = false,
  /** The `until` command's result at this Stop: undefined when the loop has none. */
  untilPassed?: boolean,
): ReplyAssessment {
  const promise = matchPromise(reply, state.completion_promise, state.promise_format);
  const turn = hashText(normalizeText(reply));
  const promiseDue = promise !== undefined && runtime.promise_streak + 1 >= state.completion_threshold;
  // All boxes checked, the metric's target reached or `until` passed completes without a promise; an
  // open box, a target not reached or a failed `until` refuses before todos and verify run.
  const due =
    (promiseDue || allChecked(checklist) || metricReached || untilPassed === true) &&
    (checklist === undefined || allChecked(checklist)) &&
    (state.metric_target === undefined || state.metric === undefined || metricReached) &&
    untilPassed !== false;
  // Only a reply identical to the last one can make an unchanged turn, so git runs only then: in a
  // repository a stall shows one turn later than it would if every turn's tree were known, never falsely.
  const needsTree = state.stall_limit > 0 && runtime.last_turn !== "" && runtime.last_turn === turn;
  return {
    reply,
    promise,
    pauseQuestion: parsePauseRequest(reply),
    turn,
    due,
    needsTree,
    needsVerify: due && state.verify !== undefined,
    needsTodos: due && state.require_todos_done,
  };
}
