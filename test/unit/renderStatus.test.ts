import { describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { renderHistoryTable } from "../../src/core/renderHistory.js";
import type { HistoryRecord } from "../../src/core/history.js";
import { renderGoalLine, renderNoLoop, renderStatus, renderTokenSparkline } from "../../src/core/renderStatus.js";
import { renderStatusline } from "../../src/core/renderStatusline.js";
import { makeRuntime, type Runtime } from "../../src/core/sidecar.js";
import { cellWidth } from "../../src/core/cellWidth.js";

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

/** Claude Code shows a status row after its own indent (at most 5 columns): the widest row that stays one row at 140 columns. */
const fitsOneRow = (text: string) => text.split("\n").every((row) => row.length <= 130);

describe("renderStatus", () => {
  it("shows n/max, limits used and left, elapsed, tokens, owner and last decisions, in at most 7 rows", () => {
    const text = renderStatus(RUNNING, RT, ".claude/continuation-loop.local.md", DECISIONS, NOW, "sess-aaaa-1111", {
      records: DECISIONS,
    });
    for (const part of [
      "loop running, iteration 3/10",
      "1h elapsed",
      "this session's",
      "goal in .claude/continuation-loop.local.md: Fix the tests",
      'ends when: Claude says "ALL GREEN"',
      "iterations 3/10 (7 left)",
      "time 1h of 2h (1h left)",
      "output tokens 12,345 of 50,000 (37,655 left)",
      "tokens 12,345 output ██",
      "#2 continued (refused: the verify command `npm test` exited with status 1)",
      "#1 continued",
    ]) {
      expect(text).toContain(part);
    }
    expect(text.split("\n").length).toBeLessThanOrEqual(7);
    expect(fitsOneRow(text)).toBe(true);
  });

  it("holds to 8 rows of at most 130 columns whatever the loop holds", () => {
    const big = state(
      [
        "iteration_count: 9",
        "max_iterations: 10000",
        'completion_promise: ["ALL GREEN and every test passing in the whole repository", "BLOCKED on the user"]',
        'until: "npm test -- --run --reporter=verbose --coverage"',
        'verify: "npm run lint && npm run typecheck && npm run build"',
        "checklist: PLAN.md",
        "require_todos_done: true",
        'metric: "npm run -s bench"',
        'metric_target: ">= 90"',
        "max_duration: 2h",
        "max_tokens: 500000",
        "max_cost: 25",
        "scope: [src/parser, test/parser, docs/parser]",
        "max_files_changed: 10",
        "completion_threshold: 2",
        "session_id: sess-aaaa-1111",
        "started_at: 2026-01-01T00:00:00Z",
      ].join("\n"),
      `${"A very long goal that goes on and on ".repeat(10)}\nsecond line\n`,
    );
    const runtime: Runtime = {
      ...RT,
      pause: {
        reason: "question",
        text: "Should I keep the old API, or remove it and update every caller in the repository? ".repeat(3),
        since: "2026-01-01T00:20:00.000Z",
      },
      last_api_error: "rate_limit",
      spend: { figure: 3.5, baseline: 0, source: "module" },
    };
    const records = Array.from({ length: 9 }, (_, i) => ({
      ...DECISIONS[1],
      iteration: i + 1,
      output_tokens: (i + 1) * 1000,
      refusal: "the until command `npm test` exited with status 1, so the goal is not met yet. Last output:\nFAIL x",
    })) as HistoryRecord[];
    const text = renderStatus(
      big,
      runtime,
      ".claude/continuation-loop.a-very-long-name-for-a-loop.local.md",
      records,
      NOW,
      "sess-aaaa-1111",
      {
        records,
        checklist: "3/12 done · next: Write the parser for the whole grammar including every corner case",
      },
    );
    expect(text.split("\n").length).toBeLessThanOrEqual(8);
    expect(fitsOneRow(text)).toBe(true);
    // The goal gives way to the state file's path, which stays whole.
    expect(text).toMatch(
      /^ {2}goal in \.claude\/continuation-loop\.a-very-long-name-for-a-loop\.local\.md: A very long goal .*…$/m,
    );
    expect(text).toContain("paused, Claude's question: Should I keep");
    expect(text).toMatch(/ends when: Claude says .*…$/m);
  });

  it("wraps at words under its own rows when the width is known: two rows a field at most, none wider", () => {
    const wide = renderStatus(RUNNING, RT, ".claude/continuation-loop.local.md", DECISIONS, NOW, "sess-aaaa-1111", {
      records: DECISIONS,
    });
    for (const columns of [74, 54]) {
      const rows = renderStatus(RUNNING, RT, ".claude/continuation-loop.local.md", DECISIONS, NOW, "sess-aaaa-1111", {
        records: DECISIONS,
        columns,
      }).split("\n");
      for (const row of rows) expect(cellWidth(row), row).toBeLessThanOrEqual(columns);
      // Each field's row starts where it did; what did not fit goes on under the field's text, not its label.
      const fields = rows.filter((row) => /^(continuation-loop:| {2}\S)/.test(row));
      expect(fields).toHaveLength(wide.split("\n").length);
      const continued = rows.filter((row) => !fields.includes(row));
      for (const row of continued) expect(row).toMatch(/^ {4}\S/);
      expect(rows.length).toBeLessThanOrEqual(2 * fields.length);
      // No word is cut in two by the fitting: the words read as they did on one row (up to a final "…").
      const words = (text: string) => text.split(/\s+/).filter((word) => word && !word.endsWith("…"));
      const all = new Set(words(wide));
      for (const word of words(rows.join(" "))) expect(all.has(word), word).toBe(true);
    }
    expect(
      renderStatus(RUNNING, RT, ".claude/continuation-loop.local.md", DECISIONS, NOW, "sess-aaaa-1111", {
        records: DECISIONS,
        columns: 140,
      }),
    ).toBe(wide);
  });

  it("stays within 8 rows for a loop held, with a metric, keys that read like fields and other loops", () => {
    const held = state(
      [
        "active: false",
        "iteration_count: 3",
        "max_iterations: 10",
        'metric: "npm run -s bench"',
        'metric_target: ">= 90"',
        "max_iteraton: 4",
        "session_id: sess-aaaa-1111",
        "started_at: 2026-01-01T00:00:00Z",
      ].join("\n"),
    );
    const others = "other loops: auth, parser (/loop-status --all shows a row for each, --name NAME one in full)";
    const text = renderStatus(held, RT, "s.md", DECISIONS, NOW, "sess-aaaa-1111", { records: DECISIONS, others });
    const rows = text.split("\n");
    expect(rows.length).toBeLessThanOrEqual(8);
    expect(fitsOneRow(text)).toBe(true);
    expect(rows[1]).toMatch(/^ {2}paused.* · ignored, not fields: max_iteraton on line 7/);
    expect(text).toContain("metric: `npm run -s bench`");
    expect(rows.at(-1)).toMatch(/^ {2}last: /);
    // Not held: the notes take their own row.
    const running = renderStatus(RUNNING, RT, "s.md", [], NOW, undefined, { others });
    expect(running.split("\n")[2]).toBe(`  ${others}`);
  });

  it("a loop waiting for background work with a long description still shows what ends the wait, in one row", () => {
    const since = "2026-01-01T00:59:00.000Z";
    const description = "npm run build -- --watch=false for the web app, then the e2e suite";
    const hold = { since, tasks: [{ id: "b1", type: "shell", description, since }], route: "module" as const };
    const rows = renderStatus(RUNNING, { ...RT, background_hold: hold }, "s.md", [], NOW, "sess-aaaa-1111").split("\n");
    expect(rows[0]).toMatch(/^continuation-loop: loop waiting/);
    expect(rows[1]).toMatch(
      /^ {2}waiting for 1 background task \(npm run build .*…\) since 00:59:00 UTC; it goes on when it finishes, or by itself at 01:09:00 UTC$/,
    );
    // The clock set back an hour past the hold's start: the bound falls at most background_wait from now.
    const ahead = "2026-01-01T02:00:00.000Z";
    const aheadHold = {
      since: ahead,
      tasks: [{ id: "b1", type: "shell", description: "build", since: ahead }],
      route: "module" as const,
    };
    expect(renderStatus(RUNNING, { ...RT, background_hold: aheadHold }, "s.md", [], NOW).split("\n")[1]).toMatch(
      /or by itself at 01:10:00 UTC$/,
    );
    expect(fitsOneRow(rows.join("\n"))).toBe(true);
    // Its time limit comes first: the row says the loop ends then.
    const short = parseState(
      "---\niteration_count: 3\nmax_iterations: 10\nmax_duration: 1h 2m\nstarted_at: 2026-01-01T00:00:00Z\n---\nFix\n",
    );
    const ends = renderStatus(short, { ...RT, background_hold: hold }, "s.md", [], NOW, undefined).split("\n")[1];
    expect(ends).toMatch(/it goes on when it finishes, or it ends at 01:02:00 UTC \(max_duration\)$/);
  });

  it("gives the keys that read like fields one row after the goal's", () => {
    const text = renderStatus(state("max_iterations: 5\nmax_iteraton: 3\nmaxCost: 5"), RT, "s.md", [], NOW);
    const rows = text.split("\n");
    expect(rows[2]).toBe(
      "  ignored, not fields: max_iteraton on line 3 (max_iterations?) · maxCost on line 4 (max_cost?)",
    );
    expect(renderStatus(RUNNING, RT, "s.md", [], NOW)).not.toContain("not fields");
  });

  it.each([
    ["another session", "other-session", "session sess-aaa's, not this one's"],
    ["no session known", undefined, "session sess-aaa's\n"],
  ])("names the owner for %s", (_name, session, expected) => {
    expect(renderStatus(RUNNING, RT, "s.md", [], NOW, session)).toContain(expected);
  });

  it("says when a loop is paused, unbound and not started, and what ends it", () => {
    const text = renderStatus(state("active: false"), makeRuntime(), "s.md", [], NOW);
    expect(text).toContain("loop paused, iteration 1/10 · not started · no owner yet");
    expect(text).toContain("paused: active is false");
    expect(text).toContain("ends when: no completion condition: it runs to a limit or /loop-stop");
    expect(text).toContain("last: no decision yet");
    const until = renderStatus(state('until: "npm test"\nverify: make lint'), makeRuntime(), "s.md", [], NOW);
    expect(until).toContain("ends when: `npm test` exits 0 (`make lint` must pass)");
  });

  it.each([
    ["an Esc", "interrupted", "paused: you interrupted the turn (Esc) (/loop-resume"],
    ["/loop-pause", "paused", "paused: by /loop-pause or continuation-loop pause (/loop-resume"],
  ])("says the loop was paused by %s, not only that active is false", (_name, reason, expected) => {
    const pause: HistoryRecord = { time: "2026-01-01T00:30:00.000Z", iteration: 2, decision: "pause", reason };
    const paused = state("active: false\niteration_count: 2\nstarted_at: 2026-01-01T00:00:00Z");
    const text = renderStatus(paused, makeRuntime(), "s.md", [...DECISIONS, pause], NOW);
    expect(text).toContain(expected);
    expect(text).not.toContain("active is false");
    // Resumed and paused again by a hand edit, the file is what says so.
    const resumed: HistoryRecord = { ...pause, decision: "resume", reason: "resumed" };
    expect(renderStatus(paused, makeRuntime(), "s.md", [pause, resumed], NOW)).toContain("paused: active is false");
  });

  it("says a loop paused after a permission prompt was refused or cancelled, not after an Esc mid-work", () => {
    const wait: HistoryRecord = {
      time: "2026-01-01T00:29:00.000Z",
      iteration: 2,
      decision: "waiting_permission",
      reason: "permission",
      tool: "Bash",
    };
    const pause: HistoryRecord = {
      time: "2026-01-01T00:30:00.000Z",
      iteration: 2,
      decision: "pause",
      reason: "interrupted",
    };
    const paused = state("active: false\niteration_count: 2\nstarted_at: 2026-01-01T00:00:00Z");
    const text = renderStatus(paused, makeRuntime(), "s.md", [...DECISIONS, wait, pause], NOW);
    expect(text).toContain("paused: you said No or pressed Esc at the permission prompt (Bash) (/loop-resume");
    expect(fitsOneRow(text)).toBe(true);
  });

  it("names an until failure in the last decisions", () => {
    const record: HistoryRecord = {
      time: "2026-01-01T00:30:00.000Z",
      decision: "continue",
      iteration: 4,
      until_failure: "`npm test` exited with status 1",
    };
    expect(renderStatus(RUNNING, RT, "s.md", [record], NOW)).toContain(
      "last: #4 continued (until `npm test` exited with status 1)",
    );
  });

  it("renders no loop with the last one", () => {
    const text = renderNoLoop(
      "s.md",
      {
        time: "2026-01-01T00:00:00.000Z",
        iteration: 4,
        decision: "end",
        reason: "completed",
        goal: "Old goal\nmore",
      },
      "/loop-status",
    );
    expect(text).toContain("no loop is running (no s.md)");
    expect(text).toContain("ended: completed");
    expect(text).toContain("goal: Old goal");
    expect(text).toContain("start one with /loop-start [options] GOAL");
    expect(renderNoLoop("s.md", undefined, "continuation-loop status")).toContain(
      "start one with continuation-loop start [options] GOAL",
    );
  });

  it("names the file of the last loop when it is another loop's, as another session's may be", () => {
    const end = { time: "2026-01-01T00:00:00.000Z", iteration: 2, decision: "end" as const, reason: "completed" };
    const other = renderNoLoop(
      ".claude/continuation-loop.docs.local.md",
      {
        ...end,
        state_file: ".claude/continuation-loop.local.md",
        goal: "Fix the parser",
      },
      "/loop-status",
    );
    expect(other).toContain("last loop (.claude/continuation-loop.local.md): ");
    const own = renderNoLoop(
      ".claude/continuation-loop.local.md",
      {
        ...end,
        state_file: ".claude/continuation-loop.local.md",
      },
      "/loop-status",
    );
    expect(own).toContain("last loop: ");
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
    expect(status).toContain("#2 api error: rate_limit");
    expect(status).toContain("#2 pause: question");
  });
  it("say when a wait after an API error goes on, as the band does, within the row", () => {
    const waiting = {
      ...makeRuntime(),
      last_api_error: "server_error at 2026-01-01T00:59:30.123Z",
      api_errors_since_stop: 1,
      api_wait_until: "2026-01-01T01:04:10.456Z",
    };
    const status = renderStatus(RUNNING, waiting, "s.md", records, NOW, "sess-aaaa-1111");
    expect(status).toMatch(/^continuation-loop: loop waiting, /);
    expect(status).toContain(
      "last API error: server_error at 00:59:30 UTC; the loop goes on by itself at 01:04:10 UTC (in 4m 10s)",
    );
    expect(fitsOneRow(status)).toBe(true);
    // A usage limit that resets on another day names the day.
    const later = renderStatus(RUNNING, { ...waiting, api_wait_until: "2026-01-07T23:59:59.000Z" }, "s.md", [], NOW);
    expect(later).toContain("goes on by itself at 2026-01-07 23:59:59 UTC (in 6d 22h 59m 59s)");
    expect(fitsOneRow(later)).toBe(true);
    // The clock set back an hour after the error: at most the wait's own length is left, never an hour more.
    const setBack = {
      ...waiting,
      last_api_error: "server_error at 2026-01-01T02:00:00.000Z",
      api_wait_until: "2026-01-01T02:02:00.000Z",
    };
    expect(renderStatus(RUNNING, setBack, "s.md", [], NOW)).toContain(
      "last API error: server_error at 02:00:00 UTC; the loop goes on by itself at 01:02:00 UTC (in 2m)",
    );
    // No wait (the module is not live): the loop goes on with the session.
    const noWait = renderStatus(RUNNING, { ...waiting, api_wait_until: "" }, "s.md", [], NOW);
    expect(noWait).toMatch(/^continuation-loop: loop running, /);
    expect(noWait).toContain("last API error: server_error at 00:59:30 UTC; the loop goes on with the session");
  });
});

describe("renderGoalLine", () => {
  it.each([
    ["## Goal\nFix the parser\n\n## Method\n1. Test", "Fix the parser"],
    ["\n  # Bug\n\nThe cache leaks\n", "The cache leaks"],
    ["Fix #12 and #13\n## Notes", "Fix #12 and #13"],
    ["#hashtag goal", "#hashtag goal"],
    ["## Only a heading\n", "## Only a heading"],
  ])("%j reads %j", (goal, line) => {
    expect(renderGoalLine(goal)).toBe(line);
  });
});
