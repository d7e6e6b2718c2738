import type { MetricRecord } from "./metric.js";

/**
 * The loop's bookkeeping, kept out of the user's state file in a sidecar JSON file
 * (`.claude/continuation-loop[.NAME].runtime.json`, docs/REFERENCE.md "Files the loop keeps"). One set of field
 * names end to end: the file, this type and the history use the same snake_case keys.
 */
export interface Runtime extends MetricRecord {
  /** Consecutive replies that carried the promise. */
  promise_streak: number;
  /** Output tokens of the loop's turns, in all and per model. */
  output_tokens: number;
  tokens_by_model: Record<string, number>;
  /** The transcript read last and the byte offset counted up to. */
  transcript: string;
  transcript_offset: number;
  /** The last message counted, so a message split across two reads is counted once. */
  last_message_id: string;
  last_message_tokens: number;
  /** Consecutive turns that changed nothing, and the fingerprints of the last turn. */
  stall_count: number;
  last_turn: string;
  last_tree: string;
  /** Fingerprint of the last full continuation prompt: while it holds, a short reminder is enough. */
  sent_digest: string;
  /** Boxes of the `checklist` checked at the last Stop: one more is progress. */
  checklist_done: number;
  /** Claude's `<loop-pause>` question while the loop waits for the user's answer; "" when not paused. */
  pause_question: string;
  /** The last API error that ended a turn ("rate_limit at <time>"), and how many since the last Stop. */
  last_api_error: string;
  api_errors_since_stop: number;
  /** Where the companion module goes on by itself after such an error: when (ISO time), "" when it does not wait. */
  api_wait_until: string;
  /** Why the loop paused after `max_api_failures` errors in a row; "" when it did not. */
  api_pause: string;
  /** The Claude Code process of the owner session at its last Stop: while it runs, the owner is alive. */
  owner_pid: string;
  /** Claude Code's session cost (USD) as the status line saw it: first figure, last figure, and spend carried over a reset. */
  cost_first_usd: number;
  cost_last_usd: number;
  cost_carried_usd: number;
  /** With `scope` or `max_files_changed`: the git tree the working tree had at the last Stop (or /loop-resume). */
  scope_tree: string;
  /** Why the loop paused for the user (the files a Stop found out of scope); "" when it did not. */
  scope_pause: string;
  /** Who handed the last figure: `module` (the companion module), `status line`, or "" (none yet). */
  cost_source: string;
  /** `fresh_context` could not be honoured (no companion module) and the user was told so, once. */
  fresh_context_told: boolean;
}

/** Which loop a sidecar belongs to: a loop is its state file's `started_at` and `session_id`. */
export interface SidecarOwner {
  started_at: string | undefined;
  session_id: string | undefined;
}

export const EMPTY_RUNTIME: Runtime = {
  promise_streak: 0,
  output_tokens: 0,
  tokens_by_model: {},
  transcript: "",
  transcript_offset: 0,
  last_message_id: "",
  last_message_tokens: 0,
  stall_count: 0,
  last_turn: "",
  last_tree: "",
  sent_digest: "",
  checklist_done: 0,
  pause_question: "",
  last_api_error: "",
  api_errors_since_stop: 0,
  api_wait_until: "",
  api_pause: "",
  owner_pid: "",
  cost_first_usd: -1,
  cost_last_usd: -1,
  cost_carried_usd: 0,
  // Written out, not spread from EMPTY_METRIC: a spread keeps this object in the idle Stop's bundle.
  metric_last: null,
  metric_error: "",
  metric_best: null,
  metric_best_iteration: 0,
  no_improvement_count: 0,
  scope_tree: "",
  scope_pause: "",
  cost_source: "",
  fresh_context_told: false,
};

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isString = (v: unknown) => typeof v === "string";
/** A dollar figure, or -1 for none seen yet. */
const isAmount = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= -1;
const isMetric = (v: unknown) => v === null || (typeof v === "number" && Number.isFinite(v));
const isTally = (v: unknown) =>
  !!v &&
  typeof v === "object" &&
  !Array.isArray(v) &&
  Object.values(v).every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0);

const GUARDS: Record<keyof Runtime, (v: unknown) => boolean> = {
  promise_streak: isCount,
  output_tokens: isCount,
  tokens_by_model: isTally,
  transcript: isString,
  transcript_offset: isCount,
  last_message_id: isString,
  last_message_tokens: isCount,
  stall_count: isCount,
  last_turn: isString,
  last_tree: isString,
  sent_digest: isString,
  checklist_done: isCount,
  pause_question: isString,
  last_api_error: isString,
  api_errors_since_stop: isCount,
  api_wait_until: isString,
  api_pause: isString,
  owner_pid: isString,
  cost_first_usd: isAmount,
  cost_last_usd: isAmount,
  cost_carried_usd: isAmount,
  metric_last: isMetric,
  metric_error: isString,
  metric_best: isMetric,
  metric_best_iteration: isCount,
  no_improvement_count: isCount,
  scope_tree: isString,
  scope_pause: isString,
  cost_source: isString,
  fresh_context_told: (v) => typeof v === "boolean",
};

/**
 * Sidecar text → the loop's Runtime, or undefined when it is not this loop's: torn or hand-edited
 * into something that is not a JSON object, or written for another `started_at` / `session_id`.
 * Such a sidecar is discarded (counters start again), never trusted. A single bad entry takes
 * its default. Pure.
 */
export function parseSidecar(text: string, owner: SidecarOwner): Runtime | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const map = raw as Record<string, unknown>;
  const loop = map.loop as Record<string, unknown> | undefined;
  if (!loop || loop.started_at !== (owner.started_at ?? null) || loop.session_id !== (owner.session_id ?? null)) {
    return undefined;
  }
  const runtime = { ...EMPTY_RUNTIME, tokens_by_model: {} } as Record<keyof Runtime, unknown>;
  for (const key of Object.keys(GUARDS) as (keyof Runtime)[]) {
    if (GUARDS[key](map[key])) runtime[key] = key === "tokens_by_model" ? { ...(map[key] as object) } : map[key];
  }
  return runtime as unknown as Runtime;
}

/** The sidecar's text: the owner first, then the counters. */
export function renderSidecar(runtime: Runtime, owner: SidecarOwner): string {
  const loop = { started_at: owner.started_at ?? null, session_id: owner.session_id ?? null };
  return `${JSON.stringify({ loop, ...runtime }, null, 2)}\n`;
}

/** The loop's spend in USD by Claude Code's own figures, or undefined before the first one (README "Spend limits"). */
export function readLoopSpend(runtime: Runtime): number | undefined {
  if (runtime.cost_first_usd < 0) return undefined;
  return runtime.cost_carried_usd + Math.max(0, runtime.cost_last_usd - runtime.cost_first_usd);
}

/**
 * A new figure of the session's `cost.total_cost_usd`: the first one seen is the baseline; a figure
 * lower than the last (the count restarted, e.g. after /clear) carries what was spent so far.
 */
export function recordCostFigure(runtime: Runtime, figure: number, source = "status line"): Runtime {
  if (runtime.cost_first_usd < 0)
    return { ...runtime, cost_first_usd: figure, cost_last_usd: figure, cost_source: source };
  if (figure < runtime.cost_last_usd)
    return { ...carryCostOverClear(runtime), cost_last_usd: figure, cost_source: source };
  return { ...runtime, cost_last_usd: figure, cost_source: source };
}

/**
 * The session's cost restarted at zero (a figure below the last one, or a `/clear` the companion module saw,
 * docs/REFERENCE.md "Fresh context"): the spend so far is carried and the next figure counts from zero, even when it is
 * above the last one.
 */
export function carryCostOverClear(runtime: Runtime): Runtime {
  const spent = readLoopSpend(runtime);
  if (spent === undefined) return runtime;
  return { ...runtime, cost_first_usd: 0, cost_last_usd: 0, cost_carried_usd: spent };
}
