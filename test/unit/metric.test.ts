// Improvement loops, the pure parts (docs/REFERENCE.md "Improvement loops"): the last number of a metric's
// output, the target and its direction, best so far and the no-improvement count, the scope match,
// and their place in the Stop order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assessReply } from "../../src/core/assessReply.js";
import { decideStop } from "../../src/core/decideStop.js";
import {
  beats,
  directionOf,
  EMPTY_METRIC,
  MAX_METRIC_MAGNITUDE,
  type MetricReading,
  type MetricRecord,
  parseLastNumber,
  parseMetricTarget,
  reachesTarget,
  recordReading,
} from "../../src/core/metric.js";
import { parseState } from "../../src/core/parseState.js";
import { renderMetricSparkline } from "../../src/core/renderMetric.js";
import { renderStatusline } from "../../src/core/renderStatusline.js";
import { decideScope, inScope, normalizeScopeEntry, outsideScope, renderFileList } from "../../src/core/scope.js";
import { digestOf, makeRuntime, parseSidecar, renderSidecar } from "../../src/core/sidecar.js";

const value = (text: string) => {
  const reading = parseLastNumber(text);
  return "value" in reading ? reading.value : reading.error;
};

describe("the last number on stdout", () => {
  it.each([
    ["42", 42],
    ["score: 0.913\n", 0.913],
    ["-3", -3],
    ["+7", 7],
    ["delta -0.5 ms", -0.5],
    ["x=-12", -12],
    [".5", 0.5],
    ["1.5e-3", 0.0015],
    ["2E+6 ops", 2_000_000],
    ["-0", 0],
    ["coverage 87.5%", 87.5],
    ["p50 120ms\np99 250ms\n", 250],
    ["result 12\n\n   \n", 12],
    ["built 2026-11-24, took 3", 3],
    ["date 2026-11-24", 24],
    ["v1.2.3", 3],
    ["12 errors", 12],
    ["size 3e", 3],
    ["NaN then 8 then NaN", 8],
    ["1e15", 1e15],
  ])("%j → %s", (text, expected) => expect(value(text)).toBe(expected));

  it.each([
    ["", "it printed no number on stdout"],
    ["no figures here\n", "it printed no number on stdout"],
    ["NaN", "it printed no number on stdout"],
    ["Infinity", "it printed no number on stdout"],
    ["total 1,234", "the last number (total 1,234) looks grouped by thousands separators; print it without them"],
    ["1_000_000", "the last number (1_000_000) looks grouped by thousands separators; print it without them"],
    ["1e999", "the last number (1e999) is beyond ±1e15"],
    ["-2e15", "the last number (-2e15) is beyond ±1e15"],
  ])("%j is no value: %s", (text, error) => expect(parseLastNumber(text)).toEqual({ error }));

  it("reads any finite number back as JavaScript prints it, after any words and before a unit", () => {
    const number = fc.double({
      noNaN: true,
      noDefaultInfinity: true,
      min: -MAX_METRIC_MAGNITUDE,
      max: MAX_METRIC_MAGNITUDE,
    });
    const words = fc.stringMatching(/^[a-z :=]{0,12}$/);
    fc.assert(
      fc.property(words, number, fc.constantFrom("", " ms", "%", "\n", "\nok\n"), (before, n, after) => {
        const text = `${before}${before === "" || before.endsWith(" ") ? "" : " "}${n}${after}`;
        expect(value(text)).toBe(Object.is(n, -0) ? 0 : n);
      }),
      { numRuns: 2000 },
    );
  });

  it("finds the last number after megabytes of log, and never throws on any text", () => {
    expect(value(`${"log line without figures\n".repeat(200_000)}final 7\n`)).toBe(7);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const reading = parseLastNumber(text);
        if ("value" in reading) expect(Number.isFinite(reading.value)).toBe(true);
        else expect(reading.error).toMatch(/number/);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the target and its direction", () => {
  it.each([
    [">= 90", ">=", 90, "higher"],
    ["> 0", ">", 0, "higher"],
    ["<= 0.5", "<=", 0.5, "lower"],
    ["<200", "<", 200, "lower"],
    ["  >=   -1e3 ", ">=", -1000, "higher"],
  ])("%j", (text, op, n, direction) => {
    const target = parseMetricTarget(text);
    expect(target).toEqual({ op, value: n });
    expect(directionOf(target)).toBe(direction);
  });

  it.each([
    ["90"],
    [90],
    ["== 90"],
    ["=> 90"],
    [">= NaN"],
    [">= Infinity"],
    [">= 1e16"],
    [">="],
    ["at least 90"],
    [">= 9 0"],
    [null],
    [[">= 1"]],
  ])("%j is not a target", (text) => expect(parseMetricTarget(text)).toBeUndefined());

  it("no target: higher is better", () => expect(directionOf(undefined)).toBe("higher"));

  it("a target is reached exactly as its comparison says", () => {
    const op = fc.constantFrom(">=", ">", "<=", "<");
    fc.assert(
      fc.property(op, fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 }), (o, n, v) => {
        const target = parseMetricTarget(`${o} ${n}`);
        expect(target).toBeDefined();
        const expected = { ">=": v >= n, ">": v > n, "<=": v <= n, "<": v < n }[o];
        expect(reachesTarget(v, target!)).toBe(expected);
      }),
    );
  });
});

describe("best so far and the no-improvement count", () => {
  it("a value beats the best only when strictly better in the direction", () => {
    expect(beats(5, null, "higher")).toBe(true);
    expect(beats(5, 5, "higher")).toBe(false);
    expect(beats(6, 5, "higher")).toBe(true);
    expect(beats(4, 5, "lower")).toBe(true);
    expect(beats(6, 5, "lower")).toBe(false);
  });

  it("keeps the best and its iteration; counts Stops without a better value, failures included", () => {
    const reading = fc.oneof(
      fc.integer({ min: -20, max: 20 }).map((v): MetricReading => ({ value: v })),
      fc.constant<MetricReading>({ error: "it printed no number on stdout" }),
    );
    fc.assert(
      fc.property(
        fc.array(reading, { maxLength: 30 }),
        fc.constantFrom("higher" as const, "lower" as const),
        (readings, direction) => {
          let record: MetricRecord = EMPTY_METRIC;
          readings.forEach((r, i) => {
            record = recordReading(record, r, i + 1, direction);
          });
          const values = readings.flatMap((r, i) => ("value" in r ? [{ v: r.value, i: i + 1 }] : []));
          if (values.length === 0) {
            expect(record.metric_best).toBeNull();
            expect(record.no_improvement_count).toBe(readings.length);
            return;
          }
          const best =
            direction === "higher" ? Math.max(...values.map((x) => x.v)) : Math.min(...values.map((x) => x.v));
          const first = values.find((x) => x.v === best)!;
          expect(record.metric_best).toBe(best);
          expect(record.metric_best_iteration).toBe(first.i);
          // Every Stop after the one that first reached the best failed to beat it.
          expect(record.no_improvement_count).toBe(readings.length - first.i);
          const last = readings.at(-1)!;
          expect(record.metric_last).toBe("value" in last ? last.value : null);
        },
      ),
    );
  });

  it("round-trips through the sidecar; a bad entry takes its default", () => {
    const owner = { started_at: "2026-01-01T00:00:00Z", session_id: "s" };
    const runtime = {
      ...makeRuntime(),
      metric_last: -2.5,
      metric_best: 1e-7,
      metric_best_iteration: 4,
      no_improvement_count: 2,
      scope_tree: "abc",
    };
    const view = { state_digest: digestOf(""), state: parseState("---\nmax_iterations: 3\n---\n\nGoal.\n") };
    expect(parseSidecar(renderSidecar(runtime, owner, view), owner)).toEqual(runtime);
    const bad = JSON.parse(renderSidecar(runtime, owner, view)) as Record<string, unknown>;
    bad.metric_best = "NaN";
    bad.metric_last = null;
    expect(parseSidecar(JSON.stringify(bad), owner)).toMatchObject({
      metric_best: null,
      metric_last: null,
      metric_best_iteration: 4,
    });
  });

  it("the status line shows the last value and the target", () => {
    const state = parseState('---\nmetric: m\nmetric_target: ">= 90"\n---\nGoal\n');
    expect(renderStatusline(state, { ...makeRuntime(), metric_last: 71.5 }, 0)).toBe(
      "⟳ loop 1/10 · metric 71.5 (>= 90)",
    );
    expect(renderStatusline(state, makeRuntime(), 0)).toBe("⟳ loop 1/10 · metric – (>= 90)");
  });

  it("the sparkline marks the best and shows a Stop without a value as ×", () => {
    const records = [3, 5, null, 9, 1].map((metric) => ({ time: "t", decision: "continue" as const, metric }));
    expect(renderMetricSparkline(records, 9)).toBe("▃▅×[█]▁");
    expect(renderMetricSparkline(records, 1)).toBe("▃▅×█[▁]");
    expect(renderMetricSparkline([], null)).toBe("");
  });
});

describe("scope", () => {
  it.each([
    ["src", "src"],
    ["./src/", "src"],
    ["src//parser/./x", "src/parser/x"],
    [".", ""],
    ["src/../docs", "docs"],
    ["a\\b", "a/b"],
  ])("%j is kept as %j", (entry, normal) => expect(normalizeScopeEntry(entry)).toBe(normal));

  it.each([["/etc"], ["../x"], [".."], ["src/../../x"], ["~/x"], ["C:\\x"], [""], ["  "]])(
    "%j leaves the project",
    (entry) => expect(normalizeScopeEntry(entry)).toBeUndefined(),
  );

  it("a folder covers what is under it, and nothing that only starts with its name", () => {
    expect(inScope("src/a.ts", ["src"])).toBe(true);
    expect(inScope("src", ["src"])).toBe(true);
    expect(inScope("srcx/a.ts", ["src"])).toBe(false);
    expect(inScope("docs/a.md", ["src", "docs/a.md"])).toBe(true);
    expect(inScope("anything", [""])).toBe(true);
    // The same name in NFD (as macOS writes it) and NFC (as typed) is one name; other letters are not.
    expect(inScope("cafe\u0301/menu.md", ["caf\u00e9"])).toBe(true);
    expect(inScope("caf\u00e9/menu.md", ["cafe\u0301"])).toBe(true);
    expect(inScope("cafe/menu.md", ["caf\u00e9"])).toBe(false);
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-c]{1,2}(\/[a-c]{1,2}){0,2}$/), { maxLength: 12 }),
        fc.array(fc.stringMatching(/^[a-c]{1,2}(\/[a-c]{1,2}){0,1}$/), { minLength: 1, maxLength: 3 }),
        (paths, entries) => {
          const outside = outsideScope(paths, entries);
          for (const path of paths) {
            const covered = entries.some((e) => path.split("/").slice(0, e.split("/").length).join("/") === e);
            expect(outside.includes(path)).toBe(!covered);
          }
        },
      ),
    );
  });

  it("names the first ten files, then a count; out of scope comes before too many", () => {
    const files = Array.from({ length: 13 }, (_, i) => `f${i}`);
    expect(renderFileList(files)).toBe("f0, f1, f2, f3, f4, f5, f6, f7, f8, f9 and 3 more");
    expect(decideScope(["src/a", "docs/b"], ["src"], 1)).toBe("1 file(s) changed outside scope (src): docs/b");
    expect(decideScope(["src/a", "src/b"], ["src"], 1)).toBe(
      "2 files changed in one iteration, more than max_files_changed (1): src/a, src/b",
    );
    expect(decideScope(["src/a"], ["src"], 1)).toBeUndefined();
    expect(decideScope([], undefined, undefined)).toBeUndefined();
    // One line whatever the files are named: a line break or a tab is shown escaped, in quotes.
    expect(decideScope(["src/a", "new\nline.txt", "tab\t.txt", "日本語 é.md"], ["src"], undefined)).toBe(
      '3 file(s) changed outside scope (src): "new\\nline.txt", "tab\\t.txt", 日本語 é.md',
    );
  });
});

describe("in the Stop order", () => {
  const loop = (front: string) => parseState(`---\n${front}\n---\nGoal\n`);
  const stopWith = (front: string, reply: string, facts: Parameters<typeof decideStop>[3], runtime = makeRuntime()) => {
    const state = loop(front);
    const reached =
      facts.metric !== undefined &&
      "value" in facts.metric &&
      state.metric_target !== undefined &&
      reachesTarget(facts.metric.value, state.metric_target);
    return decideStop(state, runtime, assessReply(state, runtime, reply, undefined, reached), facts, 0);
  };

  it("a target reached completes without a promise; not reached, the promise is refused with the figures", () => {
    const front = 'metric: m\nmetric_target: "<= 10"\ncompletion_promise: DONE';
    expect(stopWith(front, "working", { metric: { value: 10 } })).toMatchObject({ kind: "end", reason: "completed" });
    const refused = stopWith(front, "DONE", { metric: { value: 12 } });
    expect(refused).toMatchObject({ kind: "continue" });
    expect(refused.kind === "continue" && refused.refusal).toBe(
      "the metric `m` has not reached its target: it is 12 (best 12 at iteration 1; target <= 10)",
    );
  });

  it("the checklist gate comes before the metric's, verify after it", () => {
    const state = loop('metric: m\nmetric_target: ">= 1"\nverify: "npm test"');
    const notReached = assessReply(state, makeRuntime(), "x", undefined, false);
    expect(notReached).toMatchObject({ due: false, needsVerify: false });
    expect(assessReply(state, makeRuntime(), "x", undefined, true)).toMatchObject({ due: true, needsVerify: true });
  });

  it("max_no_improvement ends the loop after that many Stops without a better value", () => {
    const runtime = { ...makeRuntime(), metric_best: 5, metric_best_iteration: 1, no_improvement_count: 1 };
    const front = "metric: m\nmax_no_improvement: 2\niteration_count: 3";
    expect(stopWith(front, "x", { metric: { value: 5 } }, runtime)).toMatchObject({
      kind: "end",
      reason: "no_improvement",
    });
    expect(stopWith(front, "x", { metric: { value: 6 } }, runtime)).toMatchObject({ kind: "continue" });
    expect(stopWith(front, "x", { metric: { error: "it printed no number on stdout" } }, runtime)).toMatchObject({
      kind: "end",
      reason: "no_improvement",
    });
  });

  it("scope comes before completion: a change outside pauses even a completed loop, keeping the last tree", () => {
    const runtime = { ...makeRuntime(), scope_tree: "old" };
    const d = stopWith(
      "scope: src\ncompletion_promise: DONE",
      "DONE",
      { scope: { tree: "new", changed: ["docs/x"] } },
      runtime,
    );
    expect(d).toMatchObject({
      kind: "pause",
      reason: "scope",
      question: "1 file(s) changed outside scope (src): docs/x",
    });
    expect(d.runtime).toMatchObject({
      scope_tree: "old",
      pause: { reason: "scope", text: "1 file(s) changed outside scope (src): docs/x", since: expect.any(String) },
    });
    const ok = stopWith("scope: src", "x", { scope: { tree: "new", changed: ["src/x"] } }, runtime);
    expect(ok).toMatchObject({ kind: "continue" });
    expect(ok.runtime).toMatchObject({ scope_tree: "new", pause: null });
  });
});
