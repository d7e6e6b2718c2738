import { describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { renderHistoryTable } from "../../src/core/renderHistory.js";
import type { HistoryRecord } from "../../src/core/history.js";
import { renderNoLoop, renderStatus, renderStatusline, renderTokenSparkline } from "../../src/core/renderStatus.js";
import { makeRuntime, type Runtime } from "../../src/core/sidecar.js";

const NOW = Date.parse("2026-01-01T01:00:00Z");
const state = (front: string, body = "Fix the tests\nsecond line\n") => parseState(`---\n${front}\n---\n${body}`);
const RUNNING = state(
  [
    "iteration_count: 3",
    "max_iterations: 10",
    'completion_promise: "ALL GREEN"',
    "max_duration: 2h",
    "max_tokens: 50000",
    "session_id: sess-aaaa-1111",
    "started_at: 2026-01-01T00:00:00Z",
  ].join("\n"),
);
/** What the running loop's sidecar holds. */
const RT: Runtime = { ...makeRuntime(), output_tokens: 12345, tokens_by_model: { "claude-x": 12345 }, stall_count: 1 };
const DECISIONS: HistoryRecord[] = [
  {
    time: "2026-01-01T00:10:00.000Z",
    session: "sess-aaaa-1111",
    iteration: 1,
    decision: "continue",
    reason: "continue",
    output_tokens: 100,
  },
  {
    time: "2026-01-01T00:20:00.000Z",
    session: "sess-aaaa-1111",
    iteration: 2,
    decision: "continue",
    reason: "continue",
    output_tokens: 200,
    refusal: "the verify command `npm test` exited with status 1",
  },
];

describe("renderStatus", () => {
  it("shows n/max, limits used and left, elapsed, tokens, owner and last decisions", () => {
    const text = renderStatus(RUNNING, RT, ".claude/continuation-loop.local.md", DECISIONS, NOW, "sess-aaaa-1111");
    for (const part of [
      "loop running, iteration 3/10",
      "goal: Fix the tests",
      'promise: "ALL GREEN" (substring)',
      "iterations 3/10 (7 left)",
      "time 1h of 2h (1h left)",
      "output tokens 12,345 of 50,000 (37,655 left)",
      "elapsed: 1h (since 2026-01-01T00:00:00Z)",
      "tokens: 12,345 output tokens (claude-x 12,345)",
      "owner session: sess-aaaa-1111 (this session)",
      "iteration 1  continued",
      "refused: the verify command `npm test` exited with status 1",
    ]) {
      expect(text).toContain(part);
    }
  });

  it.each([
    ["another session", "other-session", "another session"],
    ["no session known", undefined, "owner session: sess-aaaa-1111\n"],
  ])("names the owner for %s", (_name, session, expected) => {
    expect(renderStatus(RUNNING, RT, "s.md", [], NOW, session)).toContain(expected);
  });

  it("says when a loop is paused, unbound and not started", () => {
    const text = renderStatus(state("active: false"), makeRuntime(), "s.md", [], NOW);
    expect(text).toContain("paused (active: false), iteration 1/10");
    expect(text).toContain("owner session: none yet");
    expect(text).toContain("elapsed: not started yet");
    expect(text).toContain("promise: none");
    expect(text).toContain("last decisions: none yet");
  });

  it("renders no loop with the last one", () => {
    const text = renderNoLoop("s.md", {
      time: "2026-01-01T00:00:00.000Z",
      iteration: 4,
      decision: "end",
      reason: "completed",
      goal: "Old goal\nmore",
    });
    expect(text).toContain("no loop is running (no s.md)");
    expect(text).toContain("ended: completed");
    expect(text).toContain("goal: Old goal");
  });
});

describe("renderStatusline", () => {
  it.each([
    ["a running loop", RUNNING, "sess-aaaa-1111", "⟳ loop 3/10 · 1h/2h · 12,345/50,000 tok"],
    ["another session's loop", RUNNING, "other", "⟳ loop 3/10 · 1h/2h · 12,345/50,000 tok · other session"],
    ["a paused new loop", state("active: false"), undefined, "⟳ loop paused 1/10"],
  ])("%s", (_name, s, session, expected) => {
    expect(renderStatusline(s, s === RUNNING ? RT : makeRuntime(), NOW, session)).toBe(expected);
  });
});

describe("renderHistoryTable", () => {
  const ends: HistoryRecord[] = [
    ...DECISIONS,
    {
      time: "2026-01-01T00:30:00.000Z",
      session: "sess-aaaa-1111",
      iteration: 3,
      decision: "end",
      reason: "completed",
      output_tokens: 1234567,
      goal: "Fix the tests\nmore",
    },
    {
      time: "2026-01-02T00:00:00.000Z",
      session: "bbbb",
      iteration: 1,
      decision: "end",
      reason: "stopped",
      output_tokens: 0,
      goal: "Other",
    },
  ];

  it("lists loop ends as aligned columns", () => {
    expect(renderHistoryTable(ends).split("\n")).toEqual([
      "ENDED                REASON     ITER  TOKENS     SESSION   GOAL",
      "2026-01-01 00:30:00  completed  3     1,234,567  sess-aaa  Fix the tests",
      "2026-01-02 00:00:00  stopped    1     0          bbbb      Other",
    ]);
  });

  it("lists every decision with all", () => {
    expect(renderHistoryTable(ends, true).split("\n")).toHaveLength(5);
  });

  it.each([
    [[], false, "No finished loops yet."],
    [DECISIONS, false, "No finished loops yet."],
    [[], true, "No history yet."],
  ] as const)("empty %#", (records, all, expected) => {
    expect(renderHistoryTable([...records], all)).toBe(expected);
  });
});

describe("the per-iteration token sparkline", () => {
  it.each([
    ["steps from the running totals", [100, 300, 300, 1100], "▁▂▁█"],
    ["one iteration", [50], "█"],
    ["no tokens yet", [0, 0], ""],
    ["no records", [], ""],
  ])("%s", (_name, totals, expected) => {
    expect(
      renderTokenSparkline(
        totals.map((output_tokens) => ({ time: "t", decision: "continue" as const, output_tokens })),
      ),
    ).toBe(expected);
  });
});

describe("pauses, resumes and API errors in the history and status", () => {
  const records: HistoryRecord[] = [
    { time: "2026-01-01T00:00:01Z", decision: "continue", reason: "continue", iteration: 1 },
    { time: "2026-01-01T00:00:02Z", decision: "pause", reason: "question", iteration: 2, question: "Keep the API?" },
    { time: "2026-01-01T00:00:03Z", decision: "resume", reason: "answered", iteration: 2 },
    { time: "2026-01-01T00:00:04Z", decision: "api_error", reason: "rate_limit", iteration: 2 },
  ];
  it("are named for what they are, never as a continue", () => {
    const table = renderHistoryTable(records, true);
    expect(table).toMatch(/pause: question .*asked: Keep the API\?/);
    expect(table).toContain("resume: answered");
    expect(table).toContain("api_error: rate_limit");
    const status = renderStatus(RUNNING, makeRuntime(), "s.md", records, NOW);
    expect(status).toContain("iteration 2  api error: rate_limit");
    expect(status).toContain("iteration 2  pause: question");
  });
});
