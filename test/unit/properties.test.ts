// Property-based tests (fast-check): parseState → editFrontmatter → parseState round trips keep
// every byte the user wrote, and decideStop never continues a loop it must not.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editFrontmatter } from "../../src/core/frontmatter.js";
import { reachesTarget } from "../../src/core/metric.js";
import { decideScope } from "../../src/core/scope.js";
import { FIELD_NAMES, USER_FIELDS } from "../../src/core/fields.js";
import type { LoopState } from "../../src/core/parseState.js";
import { makeRuntime, type Runtime } from "../../src/core/sidecar.js";
import { parseFrontmatter } from "../../src/core/frontmatter.js";
import { parseState } from "../../src/core/parseState.js";
import { decideStop, type Given, NOW } from "../support/decideStop.js";

/** A `runtime:` key in older state files; now ignored (the bookkeeping lives in the sidecar). */
const RUNTIME_KEY = "runtime";
const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 400) };

// Text a user could type: any Unicode but NUL and U+FFFD (the parser's marks of a non-text file).
const userText = (max = 30) => fc.string({ unit: "grapheme", maxLength: max }).filter((s) => !/[\u0000\uFFFD]/.test(s));
const oneLine = (max = 30) => userText(max).map((s) => s.replace(/[\r\n\u2028\u2029\u0085]/g, " "));
const comment = oneLine(20).map((s) => ` # ${s}`);
const maybeComment = fc.oneof(fc.constant(""), comment);
const quoted = (s: string) => JSON.stringify(s);
const isoTime = fc
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

// A body: lines of any text, including `---` lines, blank lines and CR characters.
const body = fc
  .array(fc.oneof(userText(40), fc.constantFrom("---", "--- ", "", "# Goal", "\r", "---\r")), { maxLength: 8 })
  .chain((lines) => fc.constantFrom("", "\n", "\r\n").map((end) => lines.join("\n") + end));

interface StateFile {
  text: string;
  body: string;
  keys: string[];
  newline: string;
}

const stateFile: fc.Arbitrary<StateFile> = fc
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

const runtime: fc.Arbitrary<Runtime> = fc.record({
  promise_streak: fc.nat(50),
  output_tokens: fc.nat(10_000_000),
  tokens_by_model: fc.dictionary(oneLine(10), fc.nat(1_000_000), { maxKeys: 3 }),
  transcript: userText(30),
  transcript_offset: fc.nat(),
  stall_count: fc.nat(10),
  last_turn: fc.stringMatching(/^[0-9a-f]{0,16}$/),
  last_tree: fc.stringMatching(/^[0-9a-f]{0,8}$/),
  last_message_id: userText(10),
  last_message_tokens: fc.nat(100_000),
  sent_digest: fc.stringMatching(/^[0-9a-f]{0,8}$/),
  until_tail_digest: fc.stringMatching(/^[0-9a-f]{0,8}$/),
  checklist_done: fc.nat(5),
  last_api_error: fc.constant(""),
  api_errors_since_stop: fc.nat(2),
  api_wait_until: fc.constant(""),
  background_hold: fc.constant(null),
  background_waited: fc.constant([]),
  pause: fc.constant(null),
  owner_pid: fc.constantFrom("", "4242"),
  spend: fc.option(
    fc.record({
      figure: fc.constantFrom(0, 0.5, 3),
      baseline: fc.constantFrom(-2, 0, 1.5),
      source: fc.constantFrom("module" as const, "status line" as const),
    }),
    { nil: null },
  ),
  metric_last: fc.constantFrom(null, 3, -0.5),
  metric_error: fc.constantFrom("", "it printed no number on stdout"),
  metric_best: fc.constantFrom(null, 4, 1e-3),
  metric_best_iteration: fc.nat(20),
  no_improvement_count: fc.nat(6),
  scope_tree: fc.stringMatching(/^[0-9a-f]{0,8}$/),
  fresh_context_told: fc.boolean(),
  continued_in_job: fc.constantFrom("", "4dfd6e27"),
  background_asked: fc.boolean(),
  permission_mode: fc.constantFrom("", "default", "auto"),
  permission_wait: fc.constantFrom(null, { tool: "Bash", since: "2026-11-27T01:23:00.000Z" }),
});
/** What the Stop hook writes: any subset of its own keys, with any values they can take. */
const hookUpdates = fc.record(
  {
    iteration_count: fc.integer({ min: 1, max: 1_000_000 }),
    session_id: userText(20).filter((s) => s.trim() !== ""),
    started_at: isoTime,
    runtime,
  },
  { requiredKeys: [] },
);

/** The frontmatter lines that are not the given top-level keys (and their continuation lines). */
function linesWithout(text: string, keys: string[]): string[] {
  const out: string[] = [];
  let skipping = false;
  for (const line of text.split("\n")) {
    const key = /^([A-Za-z_][\w]*):/.exec(line)?.[1];
    if (key !== undefined || /^\S/.test(line)) skipping = key !== undefined && keys.includes(key);
    if (!skipping) out.push(line.replace(/\r$/, ""));
  }
  return out;
}

describe("parseState → editFrontmatter → parseState round trips", () => {
  it("keep the body byte for byte, untouched keys and lines identical, updated keys equal", () => {
    fc.assert(
      fc.property(stateFile, hookUpdates, (file, updates) => {
        const before = parseState(file.text, "s.md");
        expect(before.body).toBe(file.body);
        const out = editFrontmatter(file.text, updates, "s.md");
        const after = parseState(out, "s.md");
        expect(after.body).toBe(file.body);
        expect(out.endsWith(`---${file.newline}${file.body}`)).toBe(true);
        expect(out.startsWith(file.text.slice(0, 3 + (file.text.startsWith("\uFEFF") ? 1 : 0)))).toBe(true);
        const data = parseFrontmatter(out, "s.md").data;
        const original = parseFrontmatter(file.text, "s.md").data;
        for (const [key, value] of Object.entries(updates)) expect(data[key]).toEqual(value);
        for (const key of Object.keys(original)) if (!(key in updates)) expect(data[key]).toEqual(original[key]);
        // Every other line, comment and blank line is where it was, as it was.
        const changed = Object.keys(updates);
        const split = (text: string) => linesWithout(text.slice(0, text.length - file.body.length), changed);
        expect(split(out)).toEqual(split(file.text));
        // A second save of the saved file works the same way.
        expect(parseState(editFrontmatter(out, { iteration_count: 7 }, "s.md"), "s.md")).toMatchObject({
          iteration_count: 7,
          body: file.body,
        });
      }),
      RUNS,
    );
  });
});

/** Any state decideStop may be handed (already validated by parseState): these fields varied, the rest their defaults. */
const loopState: fc.Arbitrary<LoopState & { runtime: Runtime }> = fc
  .record({
    active: fc.boolean(),
    iteration_count: fc.integer({ min: 1, max: 12_000 }),
    max_iterations: fc.integer({ min: 1, max: 10_000 }),
    completion_promise: fc.array(fc.constantFrom("DONE", "All tests passing", "ship it"), { maxLength: 2 }),
    promise_format: fc.constantFrom("substring" as const, "tag" as const),
    completion_threshold: fc.integer({ min: 1, max: 4 }),
    max_duration: fc.option(fc.integer({ min: 1, max: 10 * 86400 }), { nil: undefined }),
    max_tokens: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
    max_cost: fc.option(fc.constantFrom(0.5, 2, 10), { nil: undefined }),
    verify: fc.option(fc.constant("npm test"), { nil: undefined }),
    notes_file: fc.option(fc.constant("NOTES.md"), { nil: undefined }),
    checklist: fc.option(fc.constant("PLAN.md"), { nil: undefined }),
    stall_limit: fc.integer({ min: 0, max: 4 }),
    max_api_failures: fc.integer({ min: 1, max: 5 }),
    background_wait: fc.constantFrom(0, 600),
    require_todos_done: fc.boolean(),
    notify: fc.boolean(),
    metric: fc.option(fc.constant("m"), { nil: undefined }),
    metric_target: fc.option(fc.constantFrom({ op: ">=" as const, value: 5 }, { op: "<" as const, value: 0 }), {
      nil: undefined,
    }),
    max_no_improvement: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    scope: fc.option(fc.constantFrom<string[]>(["src"], ["src", "test"], [""]), { nil: undefined }),
    max_files_changed: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    fresh_context: fc.boolean(),
    session_id: fc.option(fc.constantFrom("A", "B"), { nil: undefined }),
    started_at: fc.option(
      fc.integer({ min: NOW - 20 * 86400_000, max: NOW }).map((t) => new Date(t).toISOString()),
      { nil: undefined },
    ),
    runtime: fc.oneof(fc.constant(makeRuntime()), runtime),
    body: userText(60),
  })
  .map((varied) => ({ ...parseState("---\n---\n"), ...varied }));

const stopFacts: fc.Arbitrary<Given> = fc.record(
  {
    sessionId: fc.option(fc.constantFrom("A", "B", "C"), { nil: undefined }),
    reply: fc.oneof(userText(40), fc.constantFrom("DONE", "<promise>DONE</promise>", "all TESTS passing", "Ship It.")),
    usage: fc.record({
      total: fc.nat(2_000_000),
      byModel: fc.constant({}),
      lastId: fc.constant("m"),
      lastTokens: fc.nat(100),
      transcript: fc.constant("/t"),
      offset: fc.nat(),
    }),
    treeState: fc.constantFrom("tree-1", "tree-2"),
    verify: fc.record({
      command: fc.constant("npm test"),
      exitCode: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
      timedOut: fc.boolean(),
      outputTail: fc.constant(""),
    }),
    checklist: fc.tuple(fc.integer({ min: 1, max: 5 }), fc.nat(5)).map(([total, done]) => {
      const items = Array.from({ length: total }, (_, i) => ({
        checked: i < Math.min(done, total),
        text: `task ${i}`,
        line: i + 1,
      }));
      const open = items.find((item) => !item.checked);
      return {
        items,
        total,
        done: Math.min(done, total),
        ...(open && { firstOpen: { text: open.text, line: open.line } }),
      };
    }),
    unfinishedTodos: fc.array(
      fc.record({ subject: fc.constant("todo"), status: fc.constantFrom("pending" as const, "in_progress" as const) }),
      { maxLength: 2 },
    ),
    metric: fc.oneof(
      fc.integer({ min: -3, max: 8 }).map((value) => ({ value })),
      fc.constant({ error: "it printed no number on stdout" }),
    ),
    scope: fc.record({
      tree: fc.constantFrom("t1", "t2"),
      changed: fc.array(fc.constantFrom("src/a", "test/b", "docs/c"), { maxLength: 4 }),
    }),
  },
  { requiredKeys: ["sessionId", "reply"] },
);

describe("decideStop invariants", () => {
  it("never continues past max_iterations, another session's loop, a paused loop or a spent budget; next is iteration + 1", () => {
    fc.assert(
      fc.property(
        loopState,
        stopFacts,
        fc.integer({ min: NOW - 86400_000, max: NOW + 86400_000 }),
        (state, facts, now) => {
          const decision = decideStop(state, facts, now);
          const foreign =
            state.session_id !== undefined && facts.sessionId !== undefined && state.session_id !== facts.sessionId;
          // Another session's loop is never continued, nor ended, nor touched: only ignored.
          if (foreign) expect(decision).toEqual({ kind: "ignore", why: "other_session" });
          else if (!state.active) expect(decision).toEqual({ kind: "ignore", why: "paused" });
          // Never completed while a box of the checklist is open.
          if (decision.kind === "end" && decision.reason === "completed" && facts.checklist)
            expect(facts.checklist.done).toBe(facts.checklist.total);
          // Never completed while the metric has not reached its target.
          if (decision.kind === "end" && decision.reason === "completed" && state.metric && state.metric_target) {
            expect(
              facts.metric && "value" in facts.metric && reachesTarget(facts.metric.value, state.metric_target),
            ).toBe(true);
          }
          // Scope comes first: a change outside it, or too many, always pauses, keeping the last tree.
          const outside = facts.scope && decideScope(facts.scope.changed, state.scope, state.max_files_changed);
          if (decision.kind !== "ignore")
            expect(decision.kind === "pause" && decision.reason === "scope").toBe(!!outside);
          if (decision.kind === "pause" && decision.reason === "scope") {
            const before = (state as LoopState & { runtime?: Runtime }).runtime ?? makeRuntime();
            expect(decision.runtime.scope_tree).toBe(before.scope_tree);
          }
          if (decision.kind !== "continue") return;
          if (state.metric && state.max_no_improvement !== undefined) {
            expect(decision.runtime.no_improvement_count).toBeLessThan(state.max_no_improvement);
          }
          expect(state.active).toBe(true);
          expect(foreign).toBe(false);
          expect(state.iteration_count).toBeLessThan(state.max_iterations);
          expect(decision.iteration).toBe(state.iteration_count);
          expect(decision.next).toBe(state.iteration_count + 1);
          expect(decision.updates.iteration_count).toBe(decision.next);
          if (state.max_tokens !== undefined) expect(decision.runtime.output_tokens).toBeLessThan(state.max_tokens);
          if (state.max_duration !== undefined && state.started_at !== undefined) {
            expect((now - Date.parse(state.started_at)) / 1000).toBeLessThan(state.max_duration);
          }
          // The hook writes only its own keys, and never rebinds a loop that has an owner.
          expect(
            Object.keys(decision.updates).every((k) =>
              ["session_id", "started_at", "iteration_count", RUNTIME_KEY].includes(k),
            ),
          ).toBe(true);
          if (state.session_id !== undefined) expect(decision.updates).not.toHaveProperty("session_id");
          if (state.started_at !== undefined) expect(decision.updates).not.toHaveProperty("started_at");
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("a saved continuation never loses the body or a user field, and counts exactly one", () => {
    fc.assert(
      fc.property(stateFile, stopFacts, (file, facts) => {
        const state = parseState(file.text, "s.md");
        const decision = decideStop(state, facts, NOW);
        if (decision.kind !== "continue") return;
        const saved = parseState(editFrontmatter(file.text, decision.updates, "s.md"), "s.md");
        expect(saved.body).toBe(file.body);
        expect(saved.iteration_count).toBe(state.iteration_count + 1);
        // Each user field, as the loop reads it and as written.
        const userFields = (s: LoopState) =>
          Object.fromEntries(
            USER_FIELDS.flatMap((f) => [
              [f, s[f]],
              [`written ${f}`, s.written[f]],
            ]),
          );
        expect(userFields(saved)).toEqual(userFields(state));
        expect(saved.session_id).toBe(state.session_id ?? facts.sessionId);
      }),
      RUNS,
    );
  });
});
