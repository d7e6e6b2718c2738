import { allChecked, type ReplyAssessment } from "./assessReply.js";
import { type BackgroundFacts, type BackgroundHold, decideHold, type HoldOutcome } from "./background.js";
import type { Checklist } from "./checklist.js";
import {
  decideMetric,
  decideScopePause,
  type ImprovementFacts,
  metricReached,
  refuseMetric,
} from "./decideImprovement.js";
import { decidePassedTimeOrSpend } from "./passedLimits.js";
import { MAX_VERIFY_TIMEOUT_S } from "./fields.js";
import type { LoopState } from "./parseState.js";
import type { Runtime } from "./sidecar.js";
import type { UsageTally } from "./transcript.js";

export type EndReason =
  | "completed"
  | "max_iterations"
  | "max_duration"
  | "max_tokens"
  | "max_cost"
  | "stalled"
  | "no_improvement"
  | "stopped";

/** How a command ended other than by exiting: a signal (the out-of-memory killer), or it never started. */
export type CommandEnd = { signal: string } | { notStarted: string };

export interface VerifyResult {
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  /** The limit it ran with: `verify_timeout`, or less when the commands before it took part of the Stop's time. */
  timeoutS: number;
  ended?: CommandEnd;
  /** Last lines of stdout+stderr, already capped. */
  outputTail: string;
}

export interface TodoItem {
  subject: string;
  status: "pending" | "in_progress";
}

/** The evidence gathered for this Stop; each optional part only when the assessment asked for it. */
export interface StopFacts extends ImprovementFacts {
  /** Loop-wide output-token tally after this turn, when the transcript could be read. */
  usage?: UsageTally & { transcript: string; offset: number };
  /** Fingerprint of the working tree ("" outside git; undefined when not read or git failed). */
  treeState?: string;
  /** Outside git, fingerprint of this turn's main-thread tool calls, read with the tree ("" or absent: it called none). */
  toolCalls?: string;
  verify?: VerifyResult;
  /** The `until` command's run at this Stop (docs/REFERENCE.md "How a loop ends"), when the loop has one and it ran. */
  until?: VerifyResult;
  unfinishedTodos?: TodoItem[];
  /** The `checklist` file's boxes, read at every Stop of a loop that has one. */
  checklist?: Checklist;
  /** The session's background tasks still running, from the Stop input (docs/REFERENCE.md "Background work"). */
  background?: BackgroundFacts;
  /** Tools Claude Code's permission check refused in this turn (docs/REFERENCE.md "Leave it running"). */
  refused?: string[];
  /** Claude Code refused every call of this turn (at least one): no work was done, whatever the reply says. */
  allRefused?: boolean;
  /** The session's permission mode as the Stop input says it (`default`, `plan`…); absent when it says none. */
  permissionMode?: string;
}

export type StopDecision =
  | { kind: "end"; reason: EndReason; iteration: number; promise?: string; refusal?: string; runtime: Runtime }
  | { kind: "pause"; iteration: number; question: string; runtime: Runtime; reason?: "scope" }
  /** Background tasks still run: the turn ends uncounted; `started` for the first Stop of this hold. */
  | { kind: "hold"; iteration: number; hold: BackgroundHold; started: boolean; runtime: Runtime }
  /** The session is in plan mode, where Claude cannot edit: the turn ends uncounted; `started` for its first Stop. */
  | { kind: "plan"; iteration: number; started: boolean; runtime: Runtime }
  | {
      kind: "continue";
      iteration: number;
      next: number;
      refusal?: string;
      /** The `until` command did not pass: what Claude is told (command, status, output tail). */
      untilFailure?: string;
      /** Background tasks still running that the loop does not wait for: Claude is told of them. */
      notHeld?: HoldOutcome["notHeld"];
      runtime: Runtime;
    };

/** Whose loop is this, for a Stop of `sessionId`? Only `claim` and `ours` go on to a decision. */
export function decideOwnership(
  state: Pick<LoopState, "session_id" | "active">,
  sessionId: string | undefined,
): "claim" | "ours" | "other" | "paused" {
  if (state.session_id !== undefined && sessionId !== undefined && state.session_id !== sessionId) return "other";
  if (!state.active) return "paused";
  return state.session_id === undefined && sessionId !== undefined ? "claim" : "ours";
}

/** "exited with status 1" / "timed out after 300s" / "was ended by SIGKILL": how a command run ended. */
export function renderRunStatus(run: Pick<VerifyResult, "timedOut" | "exitCode" | "ended">, timeoutS: number): string {
  if (run.timedOut) return `timed out after ${timeoutS}s`;
  if (run.ended && "notStarted" in run.ended) {
    const why = /EAGAIN|ENOMEM/.test(run.ended.notStarted) ? ": too many processes running, or no memory left" : "";
    return `could not start (${run.ended.notStarted})${why}`;
  }
  if (run.ended)
    return `was ended by signal ${run.ended.signal}${run.ended.signal === "SIGKILL" ? " (out of memory, or killed)" : ""}`;
  return `exited with status ${run.exitCode ?? "unknown"}`;
}

/** Did the loop's `until` command pass at this Stop? False without one. */
const untilPassed = (state: LoopState, facts: StopFacts): boolean =>
  state.until !== undefined && facts.until?.exitCode === 0;

/**
 * "`npm test` exited with status 1": the `until` command's failure in one line, for the history. None when it
 * passed, or did not run (a Stop that pauses for scope runs none): that is no failure.
 */
export function renderUntilStatus(state: LoopState, facts: StopFacts): string | undefined {
  const run = facts.until;
  if (state.until === undefined || run === undefined || untilPassed(state, facts)) return undefined;
  return `\`${run.command}\` ${renderLimitedStatus(run, state)}`;
}

/** How a loop's command ended; a timeout shorter than `verify_timeout` says why it was shorter. */
function renderLimitedStatus(run: VerifyResult, state: LoopState): string {
  const status = renderRunStatus(run, run.timeoutS);
  if (!run.timedOut || run.timeoutS >= state.verify_timeout) return status;
  return `${status} (what the commands before it left of ${MAX_VERIFY_TIMEOUT_S / 60}m for all of them)`;
}

/** What Claude is told when `until` did not pass: the command, its exit status or timeout, the output's tail. */
function renderUntilFailure(state: LoopState, facts: StopFacts): string | undefined {
  const status = renderUntilStatus(state, facts);
  if (status === undefined) return undefined;
  const tail = facts.until ? ` Last output:\n${facts.until.outputTail}` : "";
  return `the until command ${status}, so the goal is not met yet.${tail}`;
}

/** Why a due completion is not accepted, or undefined when every gate passes. */
function refuseCompletion(state: LoopState, facts: StopFacts, runtime: Runtime): string | undefined {
  const list = facts.checklist;
  if (list && !allChecked(list)) {
    const next = list.firstOpen ? `; the next open box (line ${list.firstOpen.line}): ${list.firstOpen.text}` : "";
    return `the checklist ${state.checklist} has ${list.done}/${list.total} boxes checked${next}`;
  }
  const metric = refuseMetric(state, runtime, facts);
  if (metric) return metric;
  const until = renderUntilFailure(state, facts);
  if (until) return until;
  const todos = facts.unfinishedTodos ?? [];
  if (state.require_todos_done && todos.length > 0) {
    const list = todos.map((t) => `- [${t.status}] ${t.subject}`).join("\n");
    return `the session still has ${todos.length} unfinished todo(s):\n${list}`;
  }
  const v = facts.verify;
  if (state.verify !== undefined && v?.exitCode !== 0) {
    if (!v) return `the verify command \`${state.verify}\` could not be run`;
    const status = renderLimitedStatus(v, state);
    return `the verify command \`${v.command}\` ${status}. Last output:\n${v.outputTail}`;
  }
  return undefined;
}

/**
 * Did this turn, whose reply repeats the last one, leave things as they were? In a git repository the tree says so
 * (unknown: no). Outside git its tool calls do: a turn that called no tool changed nothing; one that did is
 * unchanged only when it made the same calls as the last turn, whose calls are known only when its reply repeated
 * too, so such a stall shows a turn later, never falsely (docs/REFERENCE.md "How a loop ends").
 */
function decideSameWork(previous: Runtime, facts: StopFacts): boolean {
  if (facts.treeState === undefined || facts.treeState !== previous.last_tree) return false;
  if (facts.treeState !== "") return true;
  const calls = facts.toolCalls ?? "";
  return calls === "" || calls === previous.last_calls;
}

/**
 * The Stop decision for a loop this session runs: scope, completion, Claude's question, then limits; then
 * a hold while background tasks run; else continue. Pure.
 */
export function decideStop(
  state: LoopState,
  previous: Runtime,
  assessment: ReplyAssessment,
  facts: StopFacts,
  now: number,
): StopDecision {
  const iteration = state.iteration_count;
  const { promise, turn } = assessment;
  const sameReply = previous.last_turn !== "" && previous.last_turn === turn;
  const list = facts.checklist;
  // A checked box is progress, whatever the reply and the tree say.
  const progressed = list !== undefined && list.done > previous.checklist_done;
  // A turn an API error cut short is not one that changed nothing (docs/REFERENCE.md "Several loops").
  // A turn whose every call Claude Code refused may be one, whatever its reply (docs/REFERENCE.md "How a loop ends").
  const unchanged =
    (sameReply || facts.allRefused === true) &&
    !progressed &&
    previous.api_errors_since_stop === 0 &&
    decideSameWork(previous, facts);
  const usage = facts.usage;
  // A turn that ends waiting for background work, or in plan mode, is not counted, as a stall or as no improvement either.
  const background = decideHold(state.background_wait, previous, facts.background, now);
  const planning = facts.permissionMode === "plan";
  const waiting = background.hold !== null || planning;
  const runtime: Runtime = {
    ...previous,
    promise_streak: promise ? previous.promise_streak + 1 : 0,
    stall_count: waiting ? previous.stall_count : unchanged ? previous.stall_count + 1 : 0,
    last_turn: waiting ? previous.last_turn : turn,
    last_tree: waiting ? previous.last_tree : (facts.treeState ?? ""),
    last_calls: waiting ? previous.last_calls : (facts.toolCalls ?? ""),
    checklist_done: list?.done ?? previous.checklist_done,
    api_errors_since_stop: 0,
    api_wait_until: "",
    ...(usage && {
      output_tokens: usage.total,
      tokens_by_model: usage.byModel,
      transcript: usage.transcript,
      transcript_offset: usage.offset,
      last_message_id: usage.lastId,
      last_message_tokens: usage.lastTokens,
    }),
    ...decideMetric(state, previous, facts),
    ...(waiting && { no_improvement_count: previous.no_improvement_count }),
    ...(facts.scope && { scope_tree: facts.scope.tree }),
    background_hold: null,
    background_waited: background.waited,
    plan_hold: planning ? previous.plan_hold || new Date(now).toISOString() : "",
    pause: null,
  };

  // Scope: files changed outside it, or too many, pause the loop for the user; nothing else is decided.
  const outside = decideScopePause(state, facts);
  if (outside !== undefined) {
    const since = new Date(now).toISOString();
    const kept = {
      ...runtime,
      scope_tree: previous.scope_tree,
      pause: { reason: "scope", text: outside, since },
    } as const;
    return { kind: "pause", reason: "scope", iteration, question: outside, runtime: kept };
  }

  // Completion: the promise (or every box checked, the metric's target reached, `until` passed),
  // gated by threshold, checklist, metric target, until, todos and verify.
  let refusal: string | undefined;
  const reached = metricReached(state, facts.metric) || untilPassed(state, facts);
  if ((promise && runtime.promise_streak >= state.completion_threshold) || allChecked(list) || reached) {
    refusal = refuseCompletion(state, facts, runtime);
    if (!refusal) return { kind: "end", reason: "completed", iteration, runtime, ...(promise && { promise }) };
  }
  // A failed `until` is news at every Stop, whether or not Claude claimed completion (docs/REFERENCE.md "How a loop ends").
  const untilFailure = refusal === undefined ? renderUntilFailure(state, facts) : undefined;

  // Claude asks the user: the loop waits for their answer (a limit reached meanwhile ends it then).
  if (assessment.pauseQuestion !== undefined) {
    const question = assessment.pauseQuestion || "(no question given)";
    return {
      kind: "pause",
      iteration,
      question,
      runtime: {
        ...runtime,
        stall_count: 0,
        pause: { reason: "question", text: question, since: new Date(now).toISOString() },
      },
    };
  }

  // Limits, in the order of the field table.
  const end = (reason: EndReason): StopDecision => ({
    kind: "end",
    reason,
    iteration,
    runtime,
    ...(refusal && { refusal }),
  });
  if (iteration >= state.max_iterations) return end("max_iterations");
  // Time and spend are judged as a wait's end judges them (`decidePassedTimeOrSpend`), tokens between them.
  const passed = decidePassedTimeOrSpend(state, runtime, now);
  if (passed === "max_duration") return end("max_duration");
  if (state.max_tokens !== undefined && runtime.output_tokens >= state.max_tokens) return end("max_tokens");
  if (passed === "max_cost") return end("max_cost");
  if (state.stall_limit > 0 && runtime.stall_count >= state.stall_limit) return end("stalled");
  const flat = state.metric !== undefined && state.max_no_improvement !== undefined;
  if (flat && runtime.no_improvement_count >= (state.max_no_improvement ?? 0)) return end("no_improvement");

  // Plan mode: Claude cannot edit and only the person leaves it; the loop waits for a Stop outside it.
  if (planning) return { kind: "plan", iteration, started: previous.plan_hold === "", runtime };

  // Background tasks still run: the turn ends and Claude Code's notification starts the next one.
  if (background.hold) {
    const started = previous.background_hold === null;
    return {
      kind: "hold",
      iteration,
      hold: background.hold,
      started,
      runtime: { ...runtime, background_hold: background.hold },
    };
  }

  return {
    kind: "continue",
    iteration,
    next: iteration + 1,
    runtime,
    ...(refusal && { refusal }),
    ...(untilFailure && { untilFailure }),
    ...(background.notHeld.length > 0 && { notHeld: background.notHeld }),
  };
}

/** The state-file fields a loop's first Stop claims it with, counted or not: the owner and the start. */
export function decideClaimUpdates(
  state: LoopState,
  sessionId: string | undefined,
  now: number,
): Record<string, unknown> {
  const updates: Record<string, unknown> = {};
  if (state.session_id === undefined && sessionId !== undefined) updates.session_id = sessionId;
  if (state.started_at === undefined) updates.started_at = new Date(now).toISOString();
  return updates;
}

/** The state-file fields a continuing Stop writes: the claim, and the count. */
export function decideStateUpdates(
  state: LoopState,
  sessionId: string | undefined,
  now: number,
): Record<string, unknown> {
  return { ...decideClaimUpdates(state, sessionId, now), iteration_count: state.iteration_count + 1 };
}
