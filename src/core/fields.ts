import * as z from "zod/mini";
import { setupZod } from "./zodSetup.js";
import { parseDuration } from "./duration.js";

/**
 * A field's check, as zod defines it. Building zod schemas costs start-up time the Stop hook pays
 * on every stop, so each check first asks `quick`, which accepts only values the schema accepts
 * (test/unit/fields.test.ts holds both to that); the schema, built on first use, judges the rest.
 */
export interface FieldCheck {
  safeParse(value: unknown): { success: boolean };
}

function check(
  quick: (value: unknown) => boolean,
  build: () => z.ZodMiniType,
): FieldCheck & { quick: typeof quick; zod: () => z.ZodMiniType } {
  let schema: z.ZodMiniType | undefined;
  const zod = () => (schema ??= (setupZod(), build()));
  return { safeParse: (value) => (quick(value) ? { success: true } : zod().safeParse(value)), quick, zod };
}

/** One row per state-file field: how to check it, and what to tell a user who got it wrong. */
interface FieldRule {
  schema: FieldCheck;
  expected: string;
}

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.int().check(z.minimum(min), z.maximum(max));
const text = () => z.string().check(z.trim(), z.minLength(1));
const duration = () => z.union([z.string(), z.number()]).check(z.refine((v) => parseDuration(v) !== undefined));

const isInt =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (v: unknown) =>
    Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const isBool = (v: unknown) => typeof v === "boolean";
const isText = (v: unknown) => typeof v === "string" && v.trim() !== "";
const isDuration = (v: unknown) =>
  (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) && parseDuration(v) !== undefined;

export const FIELD_RULES = {
  active: { schema: check(isBool, () => z.boolean()), expected: "true or false (e.g. active: false)" },
  iteration_count: {
    schema: check(isInt(1), () => int(1)),
    expected: "a whole number of at least 1 (e.g. iteration_count: 1)",
  },
  max_iterations: {
    schema: check(isInt(1, 10000), () => int(1, 10000)),
    expected: "a whole number from 1 to 10000 (e.g. max_iterations: 20)",
  },
  completion_promise: {
    schema: check(
      (v) => isText(v) || (Array.isArray(v) && v.length > 0 && v.every(isText)),
      () => z.union([text(), z.array(text()).check(z.minLength(1))]),
    ),
    expected: 'a non-empty string or a list of them (e.g. completion_promise: "All tests passing")',
  },
  promise_format: {
    schema: check(
      (v) => v === "substring" || v === "tag",
      () => z.enum(["substring", "tag"]),
    ),
    expected: "substring or tag (e.g. promise_format: tag)",
  },
  completion_threshold: {
    schema: check(isInt(1, 1000), () => int(1, 1000)),
    expected: "a whole number from 1 to 1000 (e.g. completion_threshold: 2)",
  },
  max_duration: {
    schema: check(isDuration, duration),
    expected: "a duration like 90s, 45m, 2h, 1d or a number of seconds (e.g. max_duration: 2h)",
  },
  max_tokens: {
    schema: check(isInt(1), () => int(1)),
    expected: "a whole number of output tokens of at least 1 (e.g. max_tokens: 200000)",
  },
  verify: { schema: check(isText, text), expected: 'a shell command (e.g. verify: "npm test")' },
  verify_timeout: {
    schema: check(isDuration, duration),
    expected: "a duration like 90s, 5m or a number of seconds (e.g. verify_timeout: 10m)",
  },
  notes_file: {
    schema: check(isText, text),
    expected: "a path inside the project (e.g. notes_file: SHARED_TASK_NOTES.md)",
  },
  stall_limit: {
    schema: check(isInt(0, 1000), () => int(0, 1000)),
    expected: "a whole number from 0 (off) to 1000 (e.g. stall_limit: 3)",
  },
  require_todos_done: {
    schema: check(isBool, () => z.boolean()),
    expected: "true or false (e.g. require_todos_done: true)",
  },
  session_id: {
    schema: check(isText, text),
    expected: "the id of the Claude Code session that owns the loop, or nothing",
  },
  started_at: {
    schema: check(
      (v) => typeof v === "string" && !Number.isNaN(Date.parse(v)),
      () => z.string().check(z.refine((v) => !Number.isNaN(Date.parse(v)))),
    ),
    expected: "an ISO-8601 time (e.g. started_at: 2026-01-31T09:00:00Z)",
  },
} satisfies Record<string, FieldRule>;

export type FieldName = keyof typeof FIELD_RULES;
export const FIELD_NAMES = Object.keys(FIELD_RULES) as FieldName[];

/** Bookkeeping the hooks keep in the frontmatter key `runtime`; never written by users. */
export const RUNTIME_KEY = "runtime";
const buildRuntimeSchema = () =>
  z.object({
    promise_streak: z.catch(int(0), 0),
    output_tokens: z.catch(int(0), 0),
    tokens_by_model: z.catch(z.record(z.string(), z.number()), {}),
    transcript: z.catch(z.string(), ""),
    transcript_offset: z.catch(int(0), 0),
    stall_count: z.catch(int(0), 0),
    last_turn: z.catch(z.string(), ""),
    last_tree: z.catch(z.string(), ""),
    last_message_id: z.catch(z.string(), ""),
    last_message_tokens: z.catch(int(0), 0),
  });
export type Runtime = z.infer<ReturnType<typeof buildRuntimeSchema>>;
export const EMPTY_RUNTIME: Runtime = {
  promise_streak: 0,
  output_tokens: 0,
  tokens_by_model: {},
  transcript: "",
  transcript_offset: 0,
  stall_count: 0,
  last_turn: "",
  last_tree: "",
  last_message_id: "",
  last_message_tokens: 0,
};

const count = isInt(0);
const isString = (v: unknown) => typeof v === "string";
const RUNTIME_QUICK: Record<keyof Runtime, (v: unknown) => boolean> = {
  promise_streak: count,
  output_tokens: count,
  tokens_by_model: (v) =>
    !!v &&
    typeof v === "object" &&
    !Array.isArray(v) &&
    !Object.hasOwn(v, "__proto__") &&
    Object.values(v).every((n) => typeof n === "number" && Number.isFinite(n)),
  transcript: isString,
  transcript_offset: count,
  stall_count: count,
  last_turn: isString,
  last_tree: isString,
  last_message_id: isString,
  last_message_tokens: count,
};

/**
 * The `runtime` map → Runtime, each bad or missing entry replaced by its default. The map as the
 * hooks write it (or one missing keys an older version did not write) is taken as is, known keys
 * only, in order; anything else goes through zod.
 */
export const runtimeSchema = (() => {
  let schema: ReturnType<typeof buildRuntimeSchema> | undefined;
  const zod = () => (schema ??= (setupZod(), buildRuntimeSchema()));
  return {
    zod,
    safeParse(value: unknown): { success: true; data: Runtime } | { success: false } {
      const map =
        value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
      const keys = Object.keys(RUNTIME_QUICK) as (keyof Runtime)[];
      if (map && keys.every((k) => map[k] === undefined || RUNTIME_QUICK[k](map[k]))) {
        const pick = (k: keyof Runtime) => (map[k] === undefined ? EMPTY_RUNTIME[k] : map[k]);
        const data = Object.fromEntries(
          keys.map((k) => [k, k === "tokens_by_model" ? { ...(pick(k) as object) } : pick(k)]),
        );
        return { success: true, data: data as Runtime };
      }
      const result = zod().safeParse(value);
      return result.success ? { success: true, data: result.data } : { success: false };
    },
  };
})();

export interface LoopState {
  active: boolean;
  iteration_count: number;
  max_iterations: number;
  completion_promise: string[];
  promise_format: "substring" | "tag";
  completion_threshold: number;
  max_duration_s: number | undefined;
  max_tokens: number | undefined;
  verify: string | undefined;
  verify_timeout_s: number;
  notes_file: string | undefined;
  stall_limit: number;
  require_todos_done: boolean;
  session_id: string | undefined;
  started_at: string | undefined;
  runtime: Runtime;
  /** The goal: everything after the closing `---`, exactly as written. */
  body: string;
}
