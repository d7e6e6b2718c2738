// fast-check arbitraries shared by the property tests: state files as a user might write them (any
// field, comment, unknown key, BOM, CRLF and body), and any sidecar the hooks may have saved.
import fc from "fast-check";
import { FIELD_NAMES } from "../../src/core/fields.js";
import type { Runtime } from "../../src/core/sidecar.js";

/** A `runtime:` key in older state files; now ignored (the bookkeeping lives in the sidecar). */
export const RUNTIME_KEY = "runtime";
export const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 400) };

// Text a user could type: any Unicode but NUL and U+FFFD (the parser's marks of a non-text file).
export const userText = (max = 30) =>
  fc.string({ unit: "grapheme", maxLength: max }).filter((s) => !/[\u0000\uFFFD]/.test(s));
const oneLine = (max = 30) => userText(max).map((s) => s.replace(/[\r\n\u2028\u2029\u0085]/g, " "));
const comment = oneLine(20).map((s) => ` # ${s}`);
const maybeComment = fc.oneof(fc.constant(""), comment);
const quoted = (s: string) => JSON.stringify(s);
export const isoTime = fc
  .integer({ min: Date.parse("2000-01-01"), max: Date.parse("2100-01-01") })
  .map((t) => new Date(t).toISOString());

/** One frontmatter field as the user might write it: [key, lines]. */
type Field = [string, string[]];
const field = (key: string, value: fc.Arbitrary<string>): fc.Arbitrary<Field> =>
  fc
    .tuple(value, maybeComment, fc.constantFrom(" ", "  ", "\t"))
    .map(([v, c, gap]) => [key, [`${key}:${gap}${v}${c}`]]);
const int = (min: number, max: number) => fc.integer({ min, max }).map(String);

const knownFields: fc.Arbitrary<Field>[] = [
  field("active", fc.constantFrom("true", "false")),
  field("max_iterations", int(1, 10000)),
  field(
    "iteration_count",
    fc.oneof(int(1, 10000), fc.constantFrom("!!int 3", "&n 4", "0x5", "+6", "7.0", "'8'".slice(1, 2))),
  ),
  field(
    "completion_promise",
    fc.oneof(
      oneLine(20)
        .filter((s) => s.trim() !== "")
        .map(quoted),
      fc
        .array(
          oneLine(10).filter((s) => s.trim() !== ""),
          { minLength: 1, maxLength: 3 },
        )
        .map((a) => `[${a.map(quoted).join(", ")}]`),
    ),
  ),
  field("promise_format", fc.constantFrom("substring", "tag", '"tag"')),
  field("completion_threshold", int(1, 1000)),
  field("max_duration", fc.constantFrom("90s", "45m", "2h", "1d", "120", "'1h30m'")),
  field("max_tokens", int(1, 10_000_000)),
  field("verify", fc.constantFrom('"npm test"', "'make check'", "npm run lint")),
  field("verify_timeout", fc.constantFrom("5m", "30s", "600")),
  field("notes_file", fc.constantFrom("SHARED_TASK_NOTES.md", '"docs/notes.md"')),
  field("stall_limit", int(0, 1000)),
  field("max_api_failures", int(1, 100)),
  field("require_todos_done", fc.constantFrom("true", "false")),
  field(
    "session_id",
    fc.oneof(
      oneLine(20)
        .filter((s) => s.trim() !== "")
        .map(quoted),
      fc.constantFrom("abc-123", "~", "", "&s owner", "!!str 42", "'it''s'"),
    ),
  ),
  field("started_at", fc.oneof(isoTime.map(quoted), isoTime)),
  fc.oneof(
    field(
      RUNTIME_KEY,
      fc.constantFrom(
        "{}",
        "{promise_streak: 1, stall_count: 2}",
        '{"output_tokens": 5, "transcript": "/t.jsonl"}',
        "~",
      ),
    ),
    fc.constantFrom<Field>(
      [RUNTIME_KEY, ["runtime:", "  promise_streak: 1", "  stall_count: 2 # kept?"]],
      [RUNTIME_KEY, ["runtime:    # bookkeeping", "  tokens_by_model:", "    m: 3"]],
    ),
  ),
];
const reserved = new Set<string>([...FIELD_NAMES, RUNTIME_KEY]);
const unknownField: fc.Arbitrary<Field> = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/).filter((k) => !reserved.has(k)),
    fc.oneof(
      oneLine(30).map((s) => [` ${quoted(s)}`]),
      fc.integer().map((n) => [` ${n}`]),
      fc.array(oneLine(8), { maxLength: 3 }).map((a) => [` [${a.map(quoted).join(", ")}]`]),
      fc.array(oneLine(8), { minLength: 1, maxLength: 3 }).map((a) => ["", ...a.map((s) => `  - ${quoted(s)}`)]),
      fc
        .array(
          oneLine(12).filter((s) => s.trim() !== ""),
          { minLength: 1, maxLength: 3 },
        )
        .map((a) => [" |", ...a.map((s) => `  ${s.trim()}`)]),
    ),
    maybeComment,
  )
  .map(([key, [first, ...rest], c]) => [key, [`${key}:${first}${rest.length ? "" : c}`, ...rest]] as Field);
const commentLine: fc.Arbitrary<Field> = fc.oneof(
  comment.map((c) => ["", [c.trim()]] as Field),
  fc.constant(["", [""]] as Field),
);

// A body: lines of any text, including `---` lines, blank lines and CR characters, and some goal in them
// (a blank one is refused: parseState.test.ts).
const body = fc
  .array(fc.oneof(userText(40), fc.constantFrom("---", "--- ", "", "# Goal", "\r", "---\r")), { maxLength: 8 })
  .chain((lines) => fc.constantFrom("", "\n", "\r\n").map((end) => lines.join("\n") + end))
  .filter((text) => text.trim() !== "");

interface StateFile {
  text: string;
  body: string;
  keys: string[];
  newline: string;
}

export const stateFile: fc.Arbitrary<StateFile> = fc
  .record({
    known: fc.subarray(knownFields.map((_, i) => i)).chain((ids) => fc.tuple(...ids.map((i) => knownFields[i]!))),
    unknown: fc.uniqueArray(unknownField, { maxLength: 4, selector: ([k]) => k }),
    comments: fc.array(commentLine, { maxLength: 3 }),
    newline: fc.constantFrom("\n", "\r\n"),
    bom: fc.boolean(),
    body,
  })
  .chain((r) =>
    fc
      .shuffledSubarray([...r.known, ...r.unknown, ...r.comments], {
        minLength: r.known.length + r.unknown.length + r.comments.length,
      })
      .map((fields) => ({ ...r, fields })),
  )
  .map(({ fields, newline, bom, body }) => {
    const lines = fields.flatMap(([, l]) => l);
    const front = lines.map((l) => `${l}${newline}`).join("");
    return {
      text: `${bom ? "\uFEFF" : ""}---${newline}${front}---${newline}${body}`,
      body,
      keys: fields.map(([k]) => k).filter(Boolean),
      newline,
    };
  });

export const runtime: fc.Arbitrary<Runtime> = fc.record({
  promise_streak: fc.nat(50),
  output_tokens: fc.nat(10_000_000),
  tokens_by_model: fc.dictionary(oneLine(10), fc.nat(1_000_000), { maxKeys: 3 }),
  transcript: userText(30),
  transcript_offset: fc.nat(),
  stall_count: fc.nat(10),
  last_turn: fc.stringMatching(/^[0-9a-f]{0,16}$/),
  last_tree: fc.stringMatching(/^[0-9a-f]{0,8}$/),
  last_calls: fc.stringMatching(/^[0-9a-f]{0,8}$/),
  last_message_id: userText(10),
  last_message_tokens: fc.nat(100_000),
  sent_digest: fc.stringMatching(/^[0-9a-f]{0,8}$/),
  until_tail_digest: fc.stringMatching(/^[0-9a-f]{0,8}$/),
  checklist_done: fc.nat(5),
  last_api_error: fc.constant(""),
  api_errors_since_stop: fc.nat(2),
  api_wait_until: fc.constant(""),
  background_hold: fc.constant(null),
  plan_hold: fc.constant(""),
  background_waited: fc.constant([]),
  pause: fc.constant(null),
  owner_pid: fc.constantFrom("", "4242"),
  run_pid: fc.constantFrom("", "4343"),
  run_claude_pid: fc.constantFrom("", "4344"),
  spend: fc.option(
    fc.record({
      figure: fc.constantFrom(0, 0.5, 3),
      baseline: fc.constantFrom(-2, 0, 1.5),
      source: fc.constantFrom("module" as const, "status line" as const),
    }),
    { nil: null },
  ),
  metric_command: userText(10),
  metric_since: fc.nat(20),
  metric_last: fc.constantFrom(null, 3, -0.5),
  metric_error: fc.constantFrom("", "it printed no number on stdout"),
  metric_best: fc.constantFrom(null, 4, 1e-3),
  metric_best_iteration: fc.nat(20),
  no_improvement_count: fc.nat(6),
  scope_tree: fc.stringMatching(/^[0-9a-f]{0,8}$/),
  fresh_context_told: fc.boolean(),
  mistyped_told: fc.constantFrom("", "max_iteration"),
  checkpoint_skip_told: fc.constantFrom("", "continuation-loop: checkpoints are not kept"),
  history_unwritable_told: fc.constantFrom("", "EACCES"),
  continued_in_job: fc.constantFrom("", "4dfd6e27"),
  background_asked: fc.boolean(),
  permission_mode: fc.constantFrom("", "default", "auto"),
  permission_wait: fc.constantFrom(null, { tool: "Bash", since: "2026-11-27T01:23:00.000Z", transcript: "" }),
});
