// The short reminder of a loop whose `until` command failed (docs/REFERENCE.md "What you see while a loop runs"):
// the command's status, and the end of its output only when it is not what Claude was told last time.
import { describe, expect, it } from "vitest";
import type { StopDecision } from "../../src/core/decideStop.js";
import { parseState } from "../../src/core/parseState.js";
import { renderContinuation, renderReminder, renderUntilDigest } from "../../src/core/renderStop.js";
import { renderStartContext } from "../../src/core/renderStart.js";
import { makeRuntime } from "../../src/core/sidecar.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
const state = (front: string) => parseState(`---\n${front}\n---\nFix the tests.\n`);
const decision: Extract<StopDecision, { kind: "continue" }> = {
  kind: "continue",
  iteration: 3,
  next: 4,
  runtime: makeRuntime(),
};
const STATUS = "`npm test` exited with status 1";
const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `FAIL test/t${from + i}.test.ts`).join("\n");

describe("renderReminder with a failed until", () => {
  const until = state('max_iterations: 10\nuntil: "npm test"');

  it("the same output as last time: one line, the status and how the loop completes", () => {
    const text = renderReminder(until, decision, NOW, { until: { status: STATUS, tail: lines(30), same: true } });
    expect(text).toBe(
      `${MARKER} iteration 4/10 (6 left): keep working. ${STATUS} again, with the same output as last time. It completes when it exits 0.\n`,
    );
  });

  it("a new output: its last six lines, and where the rest is", () => {
    const text = renderReminder(until, decision, NOW, { until: { status: STATUS, tail: lines(30), same: false } });
    const [head, ...tail] = text.trimEnd().split("\n");
    expect(head).toBe(
      `${MARKER} iteration 4/10 (6 left): keep working. ${STATUS}. It completes when it exits 0. The end of its output (run it for the rest):`,
    );
    expect(tail).toEqual(lines(6, 25).split("\n"));
  });

  it("a short output whole; a long line cut to its end", () => {
    const short = renderReminder(until, decision, NOW, { until: { status: STATUS, tail: lines(2), same: false } });
    expect(short).toBe(
      `${MARKER} iteration 4/10 (6 left): keep working. ${STATUS}. It completes when it exits 0. Its output:\n${lines(2)}\n`,
    );
    const wide = `${"x".repeat(2000)}END`;
    const cut = renderReminder(until, decision, NOW, { until: { status: STATUS, tail: wide, same: false } });
    expect(cut.trimEnd().split("\n")[1]).toBe(`…${wide.slice(-800)}`);
  });

  it("a loop with a promise keeps its phrase", () => {
    const promise = state('max_iterations: 10\nuntil: "npm test"\ncompletion_promise: DONE\npromise_format: tag');
    expect(renderReminder(promise, decision, NOW, { until: { status: STATUS, tail: "x", same: true } })).toContain(
      `${STATUS} again, with the same output as last time. Say <promise>DONE</promise> only when it is true.`,
    );
  });

  it("no until news: the reminder names the command", () => {
    expect(renderReminder(until, decision, NOW)).toBe(
      `${MARKER} iteration 4/10 (6 left): keep working. It completes when \`npm test\` exits 0.\n`,
    );
  });
});

describe("renderUntilDigest", () => {
  it("is the same for runs that differ only in timings and clock times", () => {
    const run = (ms: number, clock: string, s: string) =>
      `FAIL test/a.test.ts:12:5 > adds\n Tests 1 failed | 3 passed\n Start at ${clock}\n Duration ${ms}ms (transform 30ms)\n===== 1 failed in ${s}s =====`;
    expect(renderUntilDigest(STATUS, run(312, "14:02:11", "0.12"))).toBe(
      renderUntilDigest(STATUS, run(1290, "09:59:03", "3.50")),
    );
  });

  it("changes with the status, a count, a test's name or a line number", () => {
    const base = renderUntilDigest(STATUS, "FAIL test/a.test.ts:12:5\n1 failed");
    expect(renderUntilDigest("`npm test` timed out after 300s", "FAIL test/a.test.ts:12:5\n1 failed")).not.toBe(base);
    expect(renderUntilDigest(STATUS, "FAIL test/a.test.ts:12:5\n2 failed")).not.toBe(base);
    expect(renderUntilDigest(STATUS, "FAIL test/b.test.ts:12:5\n1 failed")).not.toBe(base);
    expect(renderUntilDigest(STATUS, "FAIL test/a.test.ts:13:5\n1 failed")).not.toBe(base);
  });
});

describe("the scope Claude may change, told up front", () => {
  it("the start and every full prompt say it when the loop has one; a loop without says nothing of it", () => {
    const scoped = state("max_iterations: 10\nscope: [src/parser, test/parser]\nmax_files_changed: 8");
    const rule =
      "Scope: change only src/parser, test/parser; at most 8 files an iteration (the loop's own files aside). A stop that finds more pauses the loop for the user.";
    expect(renderContinuation(scoped, decision, NOW)).toContain(`\n\n${rule}\n\n`);
    expect(renderStartContext(scoped, ".claude/continuation-loop.local.md", NOW)).toContain(`\n\n${rule}\n\n`);
    expect(renderContinuation(state("max_files_changed: 3"), decision, NOW)).toContain(
      "Scope: at most 3 files an iteration (the loop's own files aside).",
    );
    expect(renderContinuation(state("max_iterations: 10"), decision, NOW)).not.toContain("Scope:");
  });
});
