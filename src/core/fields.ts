import { z } from "zod";
import { parseDuration } from "./duration.js";

/** One row per state-file field: how to check it, and what to tell a user who got it wrong. */
interface FieldRule {
  schema: z.ZodType;
  expected: string;
}

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.number().int().min(min).max(max);
const text = z.string().trim().min(1);
const duration = z.union([z.string(), z.number()]).refine((v) => parseDuration(v) !== undefined);
const isoTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)));

export const FIELD_RULES = {
  active: { schema: z.boolean(), expected: "true or false (e.g. active: false)" },
  iteration_count: { schema: int(1), expected: "a whole number of at least 1 (e.g. iteration_count: 1)" },
  max_iterations: { schema: int(1, 10000), expected: "a whole number from 1 to 10000 (e.g. max_iterations: 20)" },
  completion_promise: {
    schema: z.union([text, z.array(text).min(1)]),
    expected: 'a non-empty string or a list of them (e.g. completion_promise: "All tests passing")',
  },
  promise_format: { schema: z.enum(["substring", "tag"]), expected: "substring or tag (e.g. promise_format: tag)" },
  completion_threshold: { schema: int(1, 1000), expected: "a whole number from 1 to 1000 (e.g. completion_threshold: 2)" },
  max_duration: { schema: duration, expected: "a duration like 90s, 45m, 2h, 1d or a number of seconds (e.g. max_duration: 2h)" },
  max_tokens: { schema: int(1), expected: "a whole number of output tokens of at least 1 (e.g. max_tokens: 200000)" },
  verify: { schema: text, expected: 'a shell command (e.g. verify: "npm test")' },
  verify_timeout: { schema: duration, expected: "a duration like 90s, 5m or a number of seconds (e.g. verify_timeout: 10m)" },
  notes_file: { schema: text, expected: "a path inside the project (e.g. notes_file: SHARED_TASK_NOTES.md)" },
  stall_limit: { schema: int(0, 1000), expected: "a whole number from 0 (off) to 1000 (e.g. stall_limit: 3)" },
  require_todos_done: { schema: z.boolean(), expected: "true or false (e.g. require_todos_done: true)" },
  session_id: { schema: text, expected: "the id of the Claude Code session that owns the loop, or nothing" },
  started_at: { schema: isoTime, expected: "an ISO-8601 time (e.g. started_at: 2026-01-31T09:00:00Z)" },
} satisfies Record<string, FieldRule>;

export type FieldName = keyof typeof FIELD_RULES;
export const FIELD_NAMES = Object.keys(FIELD_RULES) as FieldName[];

/** Bookkeeping the hooks keep in the frontmatter key `runtime`; never written by users. */
export const RUNTIME_KEY = "runtime";
export const runtimeSchema = z.object({
  promise_streak: z.number().int().min(0).catch(0),
  output_tokens: z.number().int().min(0).catch(0),
  tokens_by_model: z.record(z.string(), z.number()).catch({}),
  transcript: z.string().catch(""),
  transcript_offset: z.number().int().min(0).catch(0),
  stall_count: z.number().int().min(0).catch(0),
  last_turn: z.string().catch(""),
  last_message_id: z.string().catch(""),
  last_message_tokens: z.number().int().min(0).catch(0),
});
export type Runtime = z.infer<typeof runtimeSchema>;
export const EMPTY_RUNTIME: Runtime = runtimeSchema.parse({});

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
