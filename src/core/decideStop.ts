import type { LoopState, Runtime } from "./fields.js";
import { hashText } from "./hash.js";
import { matchPromise, normalizeText } from "./matchPromise.js";
import type { UsageTally } from "./transcript.js";

export type EndReason = "completed" | "max_iterations" | "max_duration" | "max_tokens" | "stalled" | "stopped";

export interface VerifyResult {
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  /** Last lines of stdout+stderr, already capped. */
  outputTail: string;
}

export interface TodoItem {
  subject: string;
  status: "pending" | "in_progress";
}

/** What the shell gathered about this Stop; verify and todos only when `needsEvidence` asked. */
export interface StopFacts {
  sessionId: string | undefined;
  reply: string;
  /** Loop-wide output-token tally after this turn, when the transcript could be read. */
  usage?: UsageTally & { transcript: string; offset: number };
  /**
   * Fingerprint of the git working tree ("" outside git), read only when `needsTreeState` says
   * so; undefined when not read.
   */
  treeState?: string;
  verify?: VerifyResult;
  unfinishedTodos?: TodoItem[];
}

export type StopDecision =
  | { kind: "ignore"; why: "other_session" | "paused" }
  | { kind: "end"; reason: EndReason; iteration: number; promise?: string; refusal?: string; runtime: Runtime }
  | {
      kind: "continue";
      iteration: number;
      next: number;
      refusal?: string;
      runtime: Runtime;
      updates: Record<string, unknown>;
    };

/** Does the reply carry the promise, and has the streak reached the threshold? */
export function needsEvidence(state: LoopState, reply: string): { verify: boolean; todos: boolean } {
  const seen = matchPromise(reply, state.completion_promise, state.promise_format) !== undefined;
  const due = seen && state.runtime.promise_streak + 1 >= state.completion_threshold;
  return { verify: due && state.verify !== undefined, todos: due && state.require_todos_done };
}

/** Why a due promise is not accepted, or undefined when every gate passes. */
function refuseCompletion(state: LoopState, facts: StopFacts): string | undefined {
  if (state.require_todos_done && (facts.unfinishedTodos?.length ?? 0) > 0) {
    const list = facts.unfinishedTodos!.map((t) => `- [${t.status}] ${t.subject}`).join("\n");
    return `the session still has ${facts.unfinishedTodos!.length} unfinished todo(s):\n${list}`;
  }
  const v = facts.verify;
  if (state.verify !== undefined && (!v || v.exitCode !== 0)) {
    if (!v) return `the verify command \`${state.verify}\` could not be run`;
    const status = v.timedOut
      ? `timed out after ${state.verify_timeout_s}s`
      : `exited with status ${v.exitCode ?? "unknown"}`;
    return `the verify command \`${v.command}\` ${status}. Last output:\n${v.outputTail}`;
  }
  return undefined;
}

const replyHash = (reply: string) => hashText(normalizeText(reply));

/**
 * Only a reply identical to the last one can make an unchanged turn, so the working tree (two git
 * processes) is read only then. In a git repository this makes a stall show one turn later than
 * it would if every turn's tree were known: never a false stall.
 */
export function needsTreeState(state: LoopState, reply: string): boolean {
  return state.stall_limit > 0 && state.runtime.last_turn !== "" && state.runtime.last_turn === replyHash(reply);
}

/** Seconds since started_at, or undefined when unknown. */
export function elapsedSeconds(state: LoopState, now: number): number | undefined {
  const start = state.started_at ? Date.parse(state.started_at) : Number.NaN;
  return Number.isNaN(start) ? undefined : Math.max(0, (now - start) / 1000);
}

/** The Stop decision, in the order of SPEC §3. Pure: everything it needs is passed in. */
export function decideStop(state: LoopState, facts: StopFacts, now: number): StopDecision {
  // Step 3: another session's loop is never continued or touched.
  if (state.session_id !== undefined && facts.sessionId !== undefined && state.session_id !== facts.sessionId) {
    return { kind: "ignore", why: "other_session" };
  }
  // Step 4: paused.
  if (!state.active) return { kind: "ignore", why: "paused" };

  const iteration = state.iteration_count;
  const promise = matchPromise(facts.reply, state.completion_promise, state.promise_format);
  const turn = replyHash(facts.reply);
  const sameReply = state.runtime.last_turn !== "" && state.runtime.last_turn === turn;
  const unchanged = sameReply && facts.treeState !== undefined && facts.treeState === state.runtime.last_tree;
  const runtime: Runtime = {
    ...state.runtime,
    promise_streak: promise ? state.runtime.promise_streak + 1 : 0,
    stall_count: unchanged ? state.runtime.stall_count + 1 : 0,
    last_turn: turn,
    last_tree: facts.treeState ?? "",
    ...(facts.usage && {
      output_tokens: facts.usage.total,
      tokens_by_model: facts.usage.byModel,
      transcript: facts.usage.transcript,
      transcript_offset: facts.usage.offset,
      last_message_id: facts.usage.lastId,
      last_message_tokens: facts.usage.lastTokens,
    }),
  };

  // Step 6: the promise, gated by threshold, todos and verify.
  let refusal: string | undefined;
  if (promise && runtime.promise_streak >= state.completion_threshold) {
    refusal = refuseCompletion(state, facts);
    if (!refusal) return { kind: "end", reason: "completed", iteration, promise, runtime };
  }

  // Step 7: limits, in the order of the field table.
  const end = (reason: EndReason): StopDecision => ({
    kind: "end",
    reason,
    iteration,
    runtime,
    ...(refusal && { refusal }),
  });
  if (iteration >= state.max_iterations) return end("max_iterations");
  const elapsed = elapsedSeconds(state, now);
  if (state.max_duration_s !== undefined && elapsed !== undefined && elapsed >= state.max_duration_s)
    return end("max_duration");
  if (state.max_tokens !== undefined && runtime.output_tokens >= state.max_tokens) return end("max_tokens");
  if (state.stall_limit > 0 && runtime.stall_count >= state.stall_limit) return end("stalled");

  // Step 8: continue.
  const next = iteration + 1;
  // Keys a user reads first come first when appended; the bookkeeping map goes last.
  const updates: Record<string, unknown> = {};
  if (state.session_id === undefined && facts.sessionId !== undefined) updates.session_id = facts.sessionId;
  if (state.started_at === undefined) updates.started_at = new Date(now).toISOString();
  updates.iteration_count = next;
  updates.runtime = runtime;
  return { kind: "continue", iteration, next, runtime, updates, ...(refusal && { refusal }) };
}
