// Property-based tests (fast-check): decideStop never continues a loop it must not, and a saved
// continuation keeps every byte and field the user wrote.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editFrontmatter } from "../../src/core/frontmatter.js";
import { reachesTarget } from "../../src/core/metric.js";
import { decideScope } from "../../src/core/scope.js";
import { USER_FIELDS } from "../../src/core/fields.js";
import type { LoopState } from "../../src/core/parseState.js";
import { makeRuntime, type Runtime } from "../../src/core/sidecar.js";
import { parseState } from "../../src/core/parseState.js";
import { decideStop, type Given, NOW } from "../support/decideStop.js";
import { RUNS, RUNTIME_KEY, runtime, stateFile, userText } from "../support/stateFileArbitraries.js";

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
    // A goal: an emptied one is refused before any decision (parseState.test.ts).
    body: userText(60).filter((goal) => goal.trim() !== ""),
  })
  .map((varied) => ({ ...parseState("---\n---\nGoal\n"), ...varied }));

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
      timeoutS: fc.integer({ min: 1, max: 840 }),
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
