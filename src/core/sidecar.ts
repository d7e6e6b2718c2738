import * as z from "zod/mini";
import { hashText } from "./hash.js";
import type { LoopState } from "./parseState.js";

// The sidecar, `.claude/continuation-loop[.NAME].runtime.json` (docs/REFERENCE.md "Files the loop keeps"): the
// loop's bookkeeping, kept out of the user's state file, and the hooks' reading of that file for the companion
// module. One schema per record below; each type is inferred from its schema. One set of field names end to end:
// the file, these types and the history use the same snake_case keys. The schemas are built on first use, so
// that the idle hooks and the module, which use only the functions that need none, carry no zod.

// Each entry has its default: a sidecar of an older version lacks the newer ones. A zod schema is
// immutable, so the entries of one kind share one instance (made once, with the sidecar's schema).
// zod's number() refuses NaN and ±Infinity (JSON reads 1e999 as Infinity) by itself.
const makeEntrySchemas = () => ({
  count: z._default(z.int().check(z.gte(0)), 0),
  text: z._default(z.string(), ""),
  metricValue: z._default(z.nullable(z.number()), null),
});

/**
 * Why the hooks paused the loop (docs/REFERENCE.md "Pausing"): Claude asked the user (`question`: the loop stays
 * `active`, the next prompt answers it), a Stop found changes outside `scope` (`scope`), or API errors in
 * a row (`api_errors`). The last two also set the user's `active: false`; `text` is the question or why.
 */
const makePauseSchema = () =>
  z.object({
    reason: z.enum(["question", "scope", "api_errors"]),
    text: z.string(),
    /** ISO time of the pause. */
    since: z.string(),
  });

/**
 * The loop's spend by Claude Code's own cost figures (README "Spend limits"): the session's last
 * `cost.total_cost_usd`, who handed it, and the baseline it counts from. The spend is `figure - baseline`;
 * a figure that drops (the session's count restarted, e.g. /clear) moves the baseline so the spend so far
 * is carried (`recordCostFigure`).
 */
const makeSpendSchema = () =>
  z.object({
    figure: z.number().check(z.gte(0)),
    baseline: z.number(),
    source: z.enum(["module", "status line"]),
  });

/**
 * The loop waits for background work (docs/REFERENCE.md "Background work"): since when, the tasks (each
 * with the time the loop first waited for it, from which `background_wait` counts), and whether the
 * companion module wakes the session when the bound passes (`module`) or nothing can (`command`).
 */
const makeHoldSchema = () =>
  z.object({
    since: z.string(),
    tasks: z.array(z.object({ id: z.string(), type: z.string(), description: z.string(), since: z.string() })),
    route: z.enum(["module", "command"]),
  });

/**
 * Claude Code waits for a person to answer a permission prompt (docs/REFERENCE.md "Leave it running"): for which
 * tool, since when (ISO time), in which transcript (an Esc or "No" there ends the turn without a Stop), and the
 * call asked about: its id and transcript; or, when the transcripts did not show it yet, id "" and the session
 * transcript's size then. Its result, or a call written since with its result, means the prompt was answered.
 * Over at the next Stop, or a pause.
 */
const makePermissionWaitSchema = () =>
  z.object({
    tool: z.string(),
    since: z.string(),
    transcript: z._default(z.string(), ""),
    call: z.optional(z.object({ id: z.string(), transcript: z.string(), offset: z._default(z.number(), 0) })),
  });

// The records most sidecars hold as null (pause, spend, hold, permission wait) have their schema made
// only for a value (z.lazy).
const makeRuntimeSchema = ({ count, text, metricValue } = makeEntrySchemas()) =>
  z.object({
    /** Consecutive replies that carried the promise. */
    promise_streak: count,
    /** Output tokens of the loop's turns, in all and per model. */
    output_tokens: count,
    // Model → tokens as an object whose catchall checks every entry: z.record's checks and issue paths, through
    // the object parse the sidecar runs anyway; z.record's own would be compiled at every Stop (docs/PERFORMANCE.md).
    tokens_by_model: z._default(z.catchall(z.object({}), z.number().check(z.gte(0))), () => ({})),
    /** The transcript read last and the byte offset counted up to. */
    transcript: text,
    transcript_offset: count,
    /** The last message counted, so a message split across two reads is counted once. */
    last_message_id: text,
    last_message_tokens: count,
    /** Consecutive turns that changed nothing, and the fingerprints of the last turn: its reply, the tree, and outside git its tool calls ("" when none or not read). */
    stall_count: count,
    last_turn: text,
    last_tree: text,
    last_calls: text,
    /** Fingerprint of the last full continuation prompt: while it holds, a short reminder is enough. */
    sent_digest: text,
    /** Fingerprint of the `until` command's last failure as Claude was told it: the same again is said in a few words. */
    until_tail_digest: text,
    /** Boxes of the `checklist` checked at the last Stop: one more is progress. */
    checklist_done: count,
    /** Why the hooks paused the loop, or null. */
    pause: z._default(z.nullable(z.lazy(makePauseSchema)), null),
    /** The last API error that ended a turn ("rate_limit at <time>"), and how many since the last Stop. */
    last_api_error: text,
    api_errors_since_stop: count,
    /** Where the companion module goes on by itself after such an error: when (ISO time), "" when it does not wait. */
    api_wait_until: text,
    /** The Claude Code process of the owner session at its last Stop (`src/core/processRef.ts`): while it runs, the owner is alive. */
    owner_pid: text,
    /** The `continuation-loop run` process that drives the loop (`src/core/processRef.ts`), "" when none: while it runs, no other run takes the loop. */
    run_pid: text,
    /** The Claude Code process that run started last: one a killed run left works on through its turn, so no run takes the loop meanwhile. */
    run_claude_pid: text,
    /** Claude Code's cost figures, or null before the first one. */
    spend: z._default(z.nullable(z.lazy(makeSpendSchema)), null),
    /** Improvement loops (docs/REFERENCE.md "Improvement loops"): the command the figures are of and its first iteration, the last value and its error, the best and when, Stops without a better one. */
    metric_command: text,
    metric_since: count,
    metric_last: metricValue,
    metric_error: text,
    metric_best: metricValue,
    metric_best_iteration: count,
    no_improvement_count: count,
    /** With `scope` or `max_files_changed`: the git tree the working tree had at the last Stop (or /loop-resume). */
    scope_tree: text,
    /** The hold while the loop waits for background tasks, or null. */
    background_hold: z._default(z.nullable(z.lazy(makeHoldSchema)), null),
    /** Since when (ISO) the loop waits for the session to leave plan mode, "" when it does not (docs/REFERENCE.md "Plan mode"). */
    plan_hold: text,
    /** The ids of background tasks the loop has waited out: they never hold it again. */
    background_waited: z._default(z.array(z.string()), () => []),
    /** `fresh_context` could not be honoured (no companion module) and the user was told so, once. */
    fresh_context_told: z._default(z.boolean(), false),
    /** The state file's keys that read like a field and are none, as last told ("max_iteration,maxCost"). */
    mistyped_told: text,
    /** The line that said checkpoints are not kept (a filter's program not installed), "" once one is kept again. */
    checkpoint_skip_told: text,
    /** Why the history could not be written (EACCES), as last told; "" once it can be again. */
    history_unwritable_told: text,
    /**
     * Claude Code 2.1.197's `/background` (docs/REFERENCE.md "Leave it running"): the background session (its short
     * id) the owner session went on in, as that session said at its start; the loop is its at its first Stop.
     */
    continued_in_job: text,
    /** `/loop-start --bg`: the session goes to the background at the first Stop that continues the loop. */
    background_asked: z._default(z.boolean(), false),
    /** The session's permission mode, as Claude Code said it when a background session took the loop. */
    permission_mode: text,
    /** A permission prompt Claude Code waits on, or null. */
    permission_wait: z._default(z.nullable(z.lazy(makePermissionWaitSchema)), null),
  });

/** The sidecar's first key: the loop it belongs to, its state file's `started_at` and `session_id`. */
const makeOwnerSchema = () =>
  z.object({ loop: z.object({ started_at: z.nullable(z.string()), session_id: z.nullable(z.string()) }) });

/**
 * What is left of a loop stopped from another session or a terminal (docs/REFERENCE.md "Several loops"): its
 * owner and how it ended, so that the owner's next Stop can say so once.
 */
const makeTombstoneSchema = () =>
  z.object({
    ...makeOwnerSchema().shape,
    ended: z.object({ reason: z.literal("stopped"), by: z.string(), at: z.string() }),
  });

export type Runtime = z.infer<ReturnType<typeof makeRuntimeSchema>>;
export type Spend = z.infer<ReturnType<typeof makeSpendSchema>>;
export type Tombstone = z.infer<ReturnType<typeof makeTombstoneSchema>>["ended"];

// Each made on first use (a Stop makes two, never the tombstone's).
let schemas: { runtime: ReturnType<typeof makeRuntimeSchema>; owner: ReturnType<typeof makeOwnerSchema> } | undefined;
const readSchemas = () => (schemas ??= { runtime: makeRuntimeSchema(), owner: makeOwnerSchema() });
let tombstoneSchema: ReturnType<typeof makeTombstoneSchema> | undefined;

/**
 * The sidecar's last key, `view`: the hooks' reading of the state file the sidecar was saved with, for the
 * companion module, which has no YAML reader. The text's digest, its fields as parsed, and the checklist's
 * `k/n` counted when the sidecar was saved. Only the state-file transaction writes it (src/io/sidecarFile.ts),
 * and nothing in the hooks reads it back.
 */
export interface StateView {
  state_digest: string;
  state: LoopState;
  checklist?: string;
}

/** A loop as the companion module shows it: its fields, its bookkeeping and its checklist's `k/n`. */
export interface LoopView {
  state: LoopState;
  runtime: Runtime;
  checklist?: string;
}

/** Which loop a sidecar belongs to: a loop is its state file's `started_at` and `session_id`. */
export interface SidecarOwner {
  started_at: string | undefined;
  session_id: string | undefined;
}

/** Fresh counters: every field at its default. */
export function makeRuntime(): Runtime {
  return readSchemas().runtime.parse({});
}

/**
 * A sidecar's text as a transaction finds it: this loop's bookkeeping; another loop's (another `started_at` /
 * `session_id`, SPEC §2: discarded, never trusted); or torn (cut short by a kill, a full disk, a hand edit), whose
 * counters start again, all of them (`entries` undefined) or the entries that do not read, each taking its
 * default. `why`: what does not read, as the person is told it.
 */
export type SidecarReading =
  | { kind: "ours"; runtime: Runtime }
  | { kind: "other" }
  | { kind: "torn"; runtime: Runtime; why: string; entries?: string[] };

type Issue = { code: string; path: PropertyKey[]; expected?: string; minimum?: unknown; values?: unknown[] };

const TYPE_WORDS: Record<string, string> = {
  int: "a whole number",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "an array",
};

/** One entry that does not read, with the value it expects: `spend.figure: expected a number`. */
function renderIssue(issue: Issue): string {
  const expected =
    issue.code === "invalid_type"
      ? (TYPE_WORDS[issue.expected ?? ""] ?? issue.expected)
      : issue.code === "too_small"
        ? `a number ≥ ${String(issue.minimum)}`
        : issue.code === "invalid_value"
          ? `one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`
          : "a valid value";
  return `${issue.path.map(String).join(".")}: expected ${expected}`;
}

/** Sidecar text → whose bookkeeping it is, and what of it reads (SidecarReading). Pure. */
export function parseSidecarReading(text: string, owner: SidecarOwner): SidecarReading {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    const why = text.trim() === "" ? "it is empty" : "it is not JSON: cut short, or edited";
    return { kind: "torn", runtime: makeRuntime(), why };
  }
  const { runtime, owner: ownerSchema } = readSchemas();
  const found = ownerSchema.safeParse(raw);
  if (!found.success)
    return {
      kind: "torn",
      runtime: makeRuntime(),
      why: 'its "loop" is not {"started_at", "session_id"} of its state file',
    };
  const { loop } = found.data;
  if (loop.started_at !== (owner.started_at ?? null) || loop.session_id !== (owner.session_id ?? null))
    return { kind: "other" };
  const read = runtime.safeParse(raw);
  if (read.success) return { kind: "ours", runtime: read.data };
  // An entry that does not validate takes its default; the others are kept.
  const issues = read.error.issues as unknown as Issue[];
  const entries = [...new Set(issues.map((issue) => String(issue.path[0])))];
  const kept = { ...(raw as Record<string, unknown>) };
  for (const entry of entries) delete kept[entry];
  const again = runtime.safeParse(kept);
  const why = issues.map(renderIssue).join("; ");
  return again.success
    ? { kind: "torn", runtime: again.data, why, entries }
    : { kind: "torn", runtime: makeRuntime(), why };
}

/**
 * Sidecar text → the loop's Runtime, or undefined when it is not this loop's: torn or hand-edited
 * into something that is not a JSON object, or written for another `started_at` / `session_id`.
 * A single bad entry takes its default; a sidecar of an older version keeps the entries it shares
 * with this one. Pure.
 */
export function parseSidecar(text: string, owner: SidecarOwner): Runtime | undefined {
  const read = parseSidecarReading(text, owner);
  if (read.kind === "other" || (read.kind === "torn" && !read.entries)) return undefined;
  return read.runtime;
}

const renderOwner = (owner: SidecarOwner) => ({
  started_at: owner.started_at ?? null,
  session_id: owner.session_id ?? null,
});

/** The sidecar's text: the owner first, then the counters, then the reading of the state file. */
export function renderSidecar(runtime: Runtime, owner: SidecarOwner, view: StateView): string {
  return `${JSON.stringify({ loop: renderOwner(owner), ...runtime, view }, null, 2)}\n`;
}

/** The digest a view names its state file's text by: its length and FNV-1a, cheap in the module too. */
export const digestOf = (text: string): string => `${text.length}-${hashText(text)}`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A sidecar's text → the loop as the hooks last saved it, and the digest of the state file's text they read
 * (the module compares it with the file's own); undefined for a sidecar with no view (torn, a tombstone, an
 * older version's). No schema: what the one writer wrote is read back as it is.
 */
export function readSidecarView(text: string): { digest: string; view: LoopView } | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(raw) || !isObject(raw.view) || typeof raw.view.state_digest !== "string") return undefined;
  const { loop: _owner, view, ...runtime } = raw;
  const { state_digest, state, checklist } = view as unknown as StateView;
  return {
    digest: state_digest,
    view: { state, runtime: runtime as unknown as Runtime, ...(typeof checklist === "string" && { checklist }) },
  };
}

/** The text of a tombstone: the loop's owner and how it ended. */
export function renderTombstone(owner: SidecarOwner, ended: Tombstone): string {
  return `${JSON.stringify({ loop: renderOwner(owner), ended }, null, 2)}\n`;
}

/** How a loop ended, when the sidecar is a tombstone; undefined for anything else. */
export function parseTombstone(text: string): Tombstone | undefined {
  tombstoneSchema ??= makeTombstoneSchema();
  try {
    const read = tombstoneSchema.safeParse(JSON.parse(text));
    return read.success ? read.data.ended : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A new figure of the session's `cost.total_cost_usd`: the first one seen is the baseline; a figure
 * lower than the last (the count restarted, e.g. after /clear) carries what was spent so far.
 */
export function recordCostFigure(runtime: Runtime, figure: number, source: Spend["source"] = "status line"): Runtime {
  const spend = runtime.spend;
  if (!spend) return { ...runtime, spend: { figure, baseline: figure, source } };
  const from = figure < spend.figure ? (carryCostOverClear(runtime).spend as Spend) : spend;
  return { ...runtime, spend: { ...from, figure, source } };
}

/**
 * The session's cost restarted at zero (a figure below the last one, or a `/clear` the companion module saw,
 * docs/REFERENCE.md "Fresh context"): the spend so far is carried and the next figure counts from zero, even when it is
 * above the last one.
 */
export function carryCostOverClear(runtime: Runtime): Runtime {
  const spent = readLoopSpend(runtime);
  if (spent === undefined || !runtime.spend) return runtime;
  return { ...runtime, spend: { ...runtime.spend, figure: 0, baseline: -spent } };
}

// What the pause and spend records mean now, with no schema (the types are structural): the companion
// module's band reads them too.

/**
 * The hooks' pause that holds now: Claude's question while the loop waits for the answer, or the reason
 * the hooks set `active: false` while it stays false (a user's `active: true` ends it).
 */
export function readPause<P extends { reason: string }>(active: boolean, runtime: { pause: P | null }): P | undefined {
  const pause = runtime.pause;
  if (!pause) return undefined;
  return pause.reason === "question" || !active ? pause : undefined;
}

/**
 * The spend is rounded to steps of a tenth of a billionth of a dollar, far below any price: the difference of
 * two of Claude Code's figures carries their binary noise (0.00732 − 0.00488 is 0.0024400000000000003).
 */
const STEPS_PER_DOLLAR = 1e10;

/** The loop's spend in USD by Claude Code's own figures, or undefined before the first one (README "Spend limits"). */
export function readLoopSpend(runtime: { spend: { figure: number; baseline: number } | null }): number | undefined {
  const spend = runtime.spend;
  return spend
    ? Math.round(Math.max(0, spend.figure - spend.baseline) * STEPS_PER_DOLLAR) / STEPS_PER_DOLLAR
    : undefined;
}
