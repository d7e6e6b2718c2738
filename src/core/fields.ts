import * as z from "zod/mini";
import { parseDuration } from "./duration.js";
import { parseMetricTarget } from "./metric.js";
import { isScopeValue, normalizeScopeEntry, readScopeEntries } from "./scope.js";

/** One row of the field table below. */
export interface FieldSpec {
  /** One line of plain text: `--help`'s description and the README's "what it does" (the default is added). */
  summary: string;
  /** One of the fields most people set: the README's field table lists it. */
  common?: true;
  /** docs/REFERENCE.md's "type" (its default is added: `typeOf`), "meaning" and "example" (a line of YAML) columns. */
  type: string;
  meaning: string;
  example: string;
  /** What a wrong value is told, before "(e.g. <example>)". */
  expected: string;
  /** Written by the loop itself: no `/loop-start` flag, not in `--help`. */
  setByLoop?: true;
  /** A true/false flag: `--flag` alone means true. */
  boolean?: true;
  /** A list field: its flag is given once per entry (`--scope src --scope test`). */
  repeats?: true;
  /** What the field accepts: a zod schema, made when a file first sets the field. */
  schema: () => z.ZodMiniType;
  /** The value of a field the file leaves unset, as a person would write it; none: the loop's value is undefined. */
  default?: unknown;
  /** The written value (or the default) → the loop's value (`2h` → 7200); the value itself when absent. */
  read?: (written: never) => unknown;
  /** A restart starts from the default, not from the value the loop ended with (a loop stopped while paused runs). */
  resetOnRestart?: true;
}

// The Stop hook's own timeout in hooks/hooks.json (seconds; a test holds the two equal), and the longest
// `verify_timeout` that fits inside it with a minute to spare for the rest of the Stop.
export const STOP_HOOK_TIMEOUT_S = 900;
export const MAX_VERIFY_TIMEOUT_S = STOP_HOOK_TIMEOUT_S - 60;
const TIMEOUT_EXPECTED = `a duration like 90s, 5m or a number of seconds, at most ${MAX_VERIFY_TIMEOUT_S / 60}m (the Stop hook's own timeout is 15m)`;

/** An ISO-8601 date, or date and time with its zone (`Z`, `+01:00`). */
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;
const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.int().check(z.minimum(min), z.maximum(max));
const text = () => z.string().check(z.trim(), z.minLength(1));
/** A duration (src/core/duration.ts) of at most `max` seconds. */
const durationUpTo = (max = Number.POSITIVE_INFINITY) =>
  z.union([z.string(), z.number()]).check(
    z.refine((v) => {
      const seconds = parseDuration(v);
      return seconds !== undefined && seconds <= max;
    }),
  );
/** A validated duration (or a default) → seconds. */
const seconds = (value: string | number) => parseDuration(value) as number;

/** A true/false field: `--flag` alone means true. */
const flagField = (fallback: boolean, summary: string, meaning: string, example: string) =>
  ({
    summary,
    type: "bool",
    meaning,
    example,
    expected: "true or false",
    boolean: true,
    schema: z.boolean,
    default: fallback,
  }) as const;

/**
 * One row per state-file field: the single definition that parsing, the loop's values and defaults, the
 * restart record, `/loop-start` flags, `--help` and docs/REFERENCE.md's field table are made from
 * (docs/ARCHITECTURE.md, "Adding a field").
 */
export const FIELDS = {
  active: {
    ...flagField(
      true,
      "false pauses the loop: Claude may stop, the file is kept",
      "`false` pauses: Claude may stop, the file is kept",
      "active: false",
    ),
    resetOnRestart: true,
  },
  iteration_count: {
    summary: "the turn running now (the hook counts it)",
    type: "int ≥ 1",
    meaning: "the turn running now (the hook counts it)",
    example: "iteration_count: 1",
    expected: "a whole number of at least 1",
    setByLoop: true,
    default: 1,
    schema: () => int(1),
  },
  max_iterations: {
    summary: "most turns in the loop, the first one counted",
    common: true,
    type: "int 1–10000",
    meaning: "most turns in the loop, the first one counted",
    example: "max_iterations: 20",
    expected: "a whole number from 1 to 10000",
    default: 10,
    schema: () => int(1, 10000),
  },
  completion_promise: {
    summary: "a phrase in Claude's reply that means done (any one of a list)",
    common: true,
    type: "string or list",
    meaning: 'phrase(s) that mean "done"; any one of a list completes',
    example: "completion_promise: [All tests passing, BLOCKED]",
    expected: "a non-empty string or a list of them",
    repeats: true,
    default: [],
    read: (value: string | string[]) => [value].flat(),
    schema: () => z.union([text(), z.array(text()).check(z.minLength(1))]),
  },
  promise_format: {
    summary: "substring: the phrase anywhere, any case; tag: only inside <promise>…</promise>",
    type: "`substring` \\| `tag`",
    meaning:
      "`substring`: the phrase anywhere in Claude's last reply, any letter case, runs of whitespace folded; `tag`: only the whole text inside `<promise>…</promise>` (a phrase written in those tags means the text inside them)",
    example: "promise_format: tag",
    expected: "substring or tag",
    default: "substring",
    schema: () => z.enum(["substring", "tag"]),
  },
  completion_threshold: {
    summary: "how many replies in a row must carry the promise",
    type: "int 1–1000",
    meaning: "how many consecutive replies must carry the promise; a reply without it resets the streak",
    example: "completion_threshold: 2",
    expected: "a whole number from 1 to 1000",
    default: 1,
    schema: () => int(1, 1000),
  },
  checklist: {
    summary: "a Markdown file of task boxes: an open box refuses the promise, all checked completes",
    common: true,
    type: "path in the project",
    meaning:
      "a Markdown file of task boxes (`- [ ]`, `- [x]`): the promise is refused while a box is open, and all boxes checked completes the loop even without a promise; checking a box counts as progress",
    example: "checklist: PLAN.md",
    expected: "a path inside the project to a Markdown file with task boxes",
    schema: () => text(),
  },
  max_duration: {
    summary: "wall-clock limit from the loop's start",
    common: true,
    type: "`90s` \\| `45m` \\| `2h` \\| `1d`, combined (`1h 30m`), or seconds",
    meaning: "wall-clock limit from `started_at`",
    example: "max_duration: 2h",
    expected: "a duration like 90s, 45m, 2h, 1d, 1h 30m or a number of seconds",
    read: seconds,
    schema: () => durationUpTo(),
  },
  max_tokens: {
    summary: "most output tokens the loop may use",
    type: "int ≥ 1",
    meaning:
      "the main thread's output tokens, summed from the transcript over the loop's turns (a turn's lines by the time each records, \"Leave it running\"); a subagent's are not counted, though its spend counts toward `max_cost` (\"Subagents\")",
    example: "max_tokens: 200000",
    expected: "a whole number of output tokens of at least 1",
    schema: () => int(1),
  },
  max_cost: {
    summary: "spend limit in US dollars, by Claude Code's own cost figures",
    common: true,
    type: "USD",
    meaning:
      "the loop's spend by Claude Code's own cost figures, which the companion module or the plugin's status line hands the loop (README \"Spend limits\"); never estimated",
    example: "max_cost: 5",
    expected: "an amount of US dollars above 0, e.g. 5 or 2.5",
    schema: () => z.number().check(z.positive(), z.maximum(1_000_000)),
  },
  until: {
    summary: "a shell command run at every stop: exit 0 completes the loop",
    common: true,
    type: "shell command",
    meaning:
      "run in the project root at every stop, within `verify_timeout`: exit 0 completes the loop, promise or not (`checklist`, `metric_target`, `require_todos_done` and `verify` still apply); anything else sends Claude back with the command, its exit status and the output's tail. Never run for a state file tracked by git",
    example: 'until: "npm test"',
    expected: "a shell command",
    schema: () => text(),
  },
  verify: {
    summary: "a shell command run when the loop would complete: exit 0 confirms it, else Claude goes back",
    common: true,
    type: "shell command",
    meaning:
      "run in the project root when completion is due; exit 0 confirms it, anything else sends Claude back with the exit status and the output's tail",
    example: 'verify: "npm test"',
    expected: "a shell command",
    schema: () => text(),
  },
  verify_timeout: {
    summary: "time limit for verify and until",
    type: "duration up to `14m`",
    meaning:
      "time limit for `verify` and `until` (a timeout counts as a failure; every process the command started is ended with it); it must fit inside the Stop hook's own 15-minute timeout",
    example: "verify_timeout: 10m",
    expected: TIMEOUT_EXPECTED,
    default: "5m",
    read: seconds,
    schema: () => durationUpTo(MAX_VERIFY_TIMEOUT_S),
  },
  notes_file: {
    summary: "a file whose text goes into every continuation; Claude keeps it current",
    common: true,
    type: "path in the project",
    meaning:
      "its text goes into every continuation prompt and Claude is asked to keep it current; paths that leave the project (`..`, symlinks) are refused",
    example: "notes_file: SHARED_TASK_NOTES.md",
    expected: "a path inside the project",
    schema: () => text(),
  },
  stall_limit: {
    summary: "end after this many turns in a row that changed nothing; 0: off",
    type: "int 0–1000 (`0`: off)",
    meaning:
      "end after this many consecutive turns that changed nothing: the same reply (or every tool call refused by Claude Code) and, in a git repository, the same `git status` and `git diff`; elsewhere, no tool called or the same tool calls (name and input) as the turn before",
    example: "stall_limit: 5",
    expected: "a whole number from 0 (off) to 1000",
    default: 3,
    schema: () => int(0, 1000),
  },
  max_api_failures: {
    summary: "API errors in a row after which the loop pauses for you",
    type: "int 1–100",
    meaning:
      'API errors (rate or usage limit, overload) in a row after which the loop pauses for you instead of waiting and going on by itself ("Leave it running"; only where the companion module runs); a turn that ends normally starts the count again',
    example: "max_api_failures: 3",
    expected: "a whole number from 1 to 100",
    default: 5,
    schema: () => int(1, 100),
  },
  background_wait: {
    summary: "how long the loop waits for background tasks; 0: never",
    type: "duration (`0`: off)",
    meaning:
      "how long the loop waits for background tasks still running (a build, an agent): a stop that finds one ends the turn uncounted, and the loop goes on when Claude Code reports it finished; past the bound it goes on without it (with the companion module, by itself) and never waits for that task again. On the command path only when Claude ends its reply with `<loop-wait/>`",
    example: "background_wait: 30m",
    expected: "a duration like 10m, 1h or a number of seconds, or 0 to never wait for background tasks",
    default: "10m",
    read: (value: string | number) => (value === 0 || value === "0" ? 0 : seconds(value)),
    schema: () => z.union([z.literal(0), z.literal("0"), durationUpTo()]),
  },
  require_todos_done: flagField(
    false,
    "refuse the promise while the session has unfinished todos",
    "the promise is not accepted while the session's todo list has unfinished items",
    "require_todos_done: true",
  ),
  checkpoints: {
    ...flagField(
      false,
      "keep the working tree at every stop, to restore any iteration",
      "keep the working tree at every stop as a git commit under `refs/continuation-loop/…` (HEAD, index, stash and files untouched); `continuation-loop restore N` puts one back",
      "checkpoints: true",
    ),
    common: true,
  },
  notify: flagField(
    true,
    "ring the terminal when the loop ends or waits for you",
    "ring the terminal (BEL) when the loop ends or waits for you, so you hear it from another window",
    "notify: false",
  ),
  metric: {
    summary: "a shell command whose last printed number is the score to improve",
    common: true,
    type: "shell command",
    meaning:
      "run in the project root at every stop; its value is the last number it prints on stdout (`-3`, `0.91`, `1.5e-3`; thousands separators are refused). A failure, a timeout or no number is shown to Claude and is no improvement",
    example: 'metric: "npm run -s bench"',
    expected: "a shell command that prints a number",
    schema: () => text(),
  },
  metric_target: {
    summary: 'the score\'s goal, e.g. ">= 90" or "< 200": reached, it completes the loop',
    common: true,
    type: "`>= N` \\| `<= N` \\| `> N` \\| `< N`",
    meaning:
      "reached → the loop is complete, with or without the promise; not reached → the promise is refused. `>=`/`>`: higher is better, `<=`/`<`: lower (no target: higher)",
    example: 'metric_target: ">= 90"',
    expected:
      'a comparison of the metric with a number, quoted (YAML reads a leading > as a block): ">= 90", "<= 0.5", "> 0" or "< 200"',
    read: (value: string) => parseMetricTarget(value),
    schema: () => z.string().check(z.refine((v) => parseMetricTarget(v) !== undefined)),
  },
  max_no_improvement: {
    summary: "end after this many stops in a row without a better metric",
    type: "int 1–10000",
    meaning: "end (`no_improvement`) after this many consecutive stops whose metric did not beat the best so far",
    example: "max_no_improvement: 5",
    expected: "a whole number from 1 to 10000",
    schema: () => int(1, 10000),
  },
  metric_timeout: {
    summary: "time limit for metric",
    type: "duration up to `14m`",
    meaning:
      "time limit for `metric` (a timeout gives no value; every process the command started is ended with it); with `verify`, both fit inside the Stop hook's 15 minutes",
    example: "metric_timeout: 2m",
    expected: TIMEOUT_EXPECTED,
    default: "5m",
    read: seconds,
    schema: () => durationUpTo(MAX_VERIFY_TIMEOUT_S),
  },
  scope: {
    summary: "paths the loop may change, in git: a change outside them pauses the loop",
    type: "path or list of paths in the project",
    meaning:
      "what the loop may change (a folder covers what is under it), in a git repository: a stop that finds a file changed outside it pauses the loop for you; `/loop-resume` accepts the tree as it stands",
    example: "scope: [src/parser, test/parser]",
    expected: "a path inside the project, or a list of them (no absolute paths, no .. out of it)",
    repeats: true,
    read: (value: string | string[]) => readScopeEntries(value)?.map((entry) => normalizeScopeEntry(entry) ?? entry),
    schema: () => z.union([z.string(), z.array(z.string())]).check(z.refine(isScopeValue)),
  },
  max_files_changed: {
    summary: "most files one iteration may change, in git; more pause the loop",
    type: "int 1–100000",
    meaning: "most files one iteration may change, in a git repository; more pause the loop for you",
    example: "max_files_changed: 10",
    expected: "a whole number from 1 to 100000",
    schema: () => int(1, 100000),
  },
  fresh_context: flagField(
    false,
    "clear the context before each continuation; needs the companion module",
    "each continuation clears the context (a real `/clear`) and sends the full prompt, standing alone; memory between iterations is the files, `notes_file` first. Needs the companion module (Claude Code 2.1.287 or later, the plugin route): elsewhere `/loop-start` refuses it and a loop keeps its context",
    "fresh_context: true",
  ),
  session_id: {
    summary: "the session that owns the loop",
    type: "string",
    meaning: "the session that owns the loop; other sessions ignore it. Unset: the first session to stop claims it",
    example: "session_id: 4f0c2a…",
    expected: "the id of the Claude Code session that owns the loop, or nothing",
    setByLoop: true,
    schema: () => text(),
  },
  started_at: {
    summary: "the loop's start, for max_duration",
    type: "ISO-8601",
    meaning: "start time, for `max_duration`",
    example: "started_at: 2026-01-31T09:00:00Z",
    expected: "an ISO-8601 time with its zone, like 2026-01-31T09:00:00Z",
    setByLoop: true,
    // A time without its zone would be read in the machine's time zone, and move with TZ or DST.
    schema: () => z.string().check(z.refine((v) => ZONED_TIME.test(v.trim()) && !Number.isNaN(Date.parse(v)))),
  },
} satisfies Record<string, FieldSpec>;

export type FieldName = keyof typeof FIELDS;
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];
export const specOf = (field: FieldName): FieldSpec => FIELDS[field];

type RowOf<K extends FieldName> = (typeof FIELDS)[K];
/** A field's value as a state file holds it, once its schema accepted it. */
type WrittenValue<K extends FieldName> = z.infer<ReturnType<RowOf<K>["schema"]>>;
type ReadValue<K extends FieldName> = RowOf<K> extends { read: (value: never) => infer R } ? R : WrittenValue<K>;
/** The user fields a state file sets, as written. */
export type WrittenFields = { [K in FieldName]?: WrittenValue<K> };
/** A loop's fields as its rows read them, defaults applied; a field with no default and no value is undefined. */
export type FieldValues = {
  [K in FieldName]: RowOf<K> extends { default: unknown } ? ReadValue<K> : ReadValue<K> | undefined;
};

/** Fields a user sets with a `/loop-start` flag (the loop's own bookkeeping fields have none). */
export const isUserField = (field: FieldName): boolean => !specOf(field).setByLoop;
export const USER_FIELDS = FIELD_NAMES.filter(isUserField);
/** `max_iterations` → `max-iterations`. */
export const flagOf = (field: FieldName): string => field.replace(/_/g, "-");
export const isBooleanField = (field: FieldName): boolean => specOf(field).boolean === true;
export const isRepeatedField = (field: FieldName): boolean => specOf(field).repeats === true;
/** "a whole number from 1 to 10000 (e.g. max_iterations: 20)". */
export const expectedOf = (field: FieldName): string => `${specOf(field).expected} (e.g. ${specOf(field).example})`;

const schemas = new Map<FieldName, z.ZodMiniType>();

/** Does the value fit the field? Only the fields a file sets have their schema made and run. */
export function acceptsValue(field: FieldName, value: unknown): boolean {
  let schema = schemas.get(field);
  if (!schema) {
    schema = specOf(field).schema();
    schemas.set(field, schema);
  }
  return schema.safeParse(value).success;
}

export const isFieldName = (key: string): key is FieldName => Object.hasOwn(FIELDS, key);
