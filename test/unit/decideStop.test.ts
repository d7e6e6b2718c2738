import { describe, expect, it } from "vitest";
import { assessReply } from "../../src/core/assessReply.js";
import { renderRunStatus } from "../../src/core/decideStop.js";
import { makeRuntime } from "../../src/core/sidecar.js";
import { decideStop, facts, NOW, type S, state } from "../support/decideStop.js";

const needsTreeState = (s: S, reply: string) => assessReply(s, s.runtime ?? makeRuntime(), reply).needsTree;
const needsEvidence = (s: S, reply: string) => {
  const a = assessReply(s, s.runtime ?? makeRuntime(), reply);
  return { verify: a.needsVerify, todos: a.needsTodos };
};

describe("decideStop follows the Stop order of docs/ARCHITECTURE.md", () => {
  it.each([
    ["another session's loop is ignored", "session_id: other", facts(), { kind: "ignore", why: "other_session" }],
    [
      "another session's loop is ignored even when complete",
      "session_id: other\ncompletion_promise: DONE",
      facts({ reply: "DONE" }),
      { kind: "ignore", why: "other_session" },
    ],
    [
      "another session's loop is ignored past its limit",
      "session_id: other\niteration_count: 10",
      facts(),
      { kind: "ignore", why: "other_session" },
    ],
    ["a paused loop lets Claude stop", "active: false", facts(), { kind: "ignore", why: "paused" }],
    [
      "a paused loop is not completed",
      "active: false\ncompletion_promise: DONE",
      facts({ reply: "DONE" }),
      { kind: "ignore", why: "paused" },
    ],
    ["the owner continues", "session_id: s1", facts(), { kind: "continue", iteration: 1, next: 2 }],
    [
      "an unowned loop is claimed",
      "",
      facts(),
      { kind: "continue", updates: expect.objectContaining({ session_id: "s1" }) },
    ],
    ["no input session: no claim, no refusal", "session_id: s9", facts({ sessionId: undefined }), { kind: "continue" }],
    [
      "the promise completes",
      'completion_promise: "All tests passing"',
      facts({ reply: "Done. ALL TESTS PASSING" }),
      { kind: "end", reason: "completed", promise: "All tests passing" },
    ],
    [
      "the promise completes on the last turn",
      "completion_promise: DONE\niteration_count: 10",
      facts({ reply: "done" }),
      { kind: "end", reason: "completed" },
    ],
    [
      "max_iterations ends at the cap",
      "iteration_count: 10\nmax_iterations: 10",
      facts(),
      { kind: "end", reason: "max_iterations", iteration: 10 },
    ],
    [
      "past the cap (edited) ends",
      "iteration_count: 12\nmax_iterations: 10",
      facts(),
      { kind: "end", reason: "max_iterations" },
    ],
    [
      "max_iterations: 1 allows one turn",
      "max_iterations: 1",
      facts(),
      { kind: "end", reason: "max_iterations", iteration: 1 },
    ],
    ["one below the cap continues", "iteration_count: 9\nmax_iterations: 10", facts(), { kind: "continue", next: 10 }],
    [
      "stop_hook_active is not a reason to stop",
      "iteration_count: 2",
      facts({ reply: "x" }),
      { kind: "continue", next: 3 },
    ],
  ])("%s", (_name, front, f, expected) => {
    expect(decideStop(state(front), f, NOW)).toMatchObject(expected);
  });

  it("sets started_at once and counts iterations", () => {
    const first = decideStop(state(""), facts(), NOW);
    expect(first).toMatchObject({
      kind: "continue",
      updates: { iteration_count: 2, started_at: "2026-03-01T12:00:00.000Z" },
    });
    const later = decideStop(state("started_at: 2026-03-01T11:00:00Z\niteration_count: 4"), facts(), NOW);
    expect(later.kind).toBe("continue");
    expect(later.kind === "continue" && Object.keys(later.updates)).toEqual(["session_id", "iteration_count"]);
  });
});

describe("gates and limits", () => {
  it.each([
    [
      "threshold not yet met",
      "completion_promise: DONE\ncompletion_threshold: 2",
      facts({ reply: "DONE" }),
      { kind: "continue", runtime: expect.objectContaining({ promise_streak: 1 }) },
    ],
    [
      "threshold met on the streak",
      "completion_promise: DONE\ncompletion_threshold: 2\nruntime: {promise_streak: 1}",
      facts({ reply: "DONE" }),
      { kind: "end", reason: "completed" },
    ],
    [
      "a miss resets the streak",
      "completion_promise: DONE\ncompletion_threshold: 2\nruntime: {promise_streak: 1}",
      facts({ reply: "no" }),
      { kind: "continue", runtime: expect.objectContaining({ promise_streak: 0 }) },
    ],
    [
      "verify passing completes",
      'completion_promise: DONE\nverify: "true"',
      facts({
        reply: "DONE",
        verify: { command: "true", exitCode: 0, timedOut: false, timeoutS: 300, outputTail: "" },
      }),
      { kind: "end", reason: "completed" },
    ],
    [
      "verify failing continues with a reason",
      'completion_promise: DONE\nverify: "npm test"',
      facts({
        reply: "DONE",
        verify: { command: "npm test", exitCode: 1, timedOut: false, timeoutS: 300, outputTail: "1 failing" },
      }),
      { kind: "continue", refusal: expect.stringContaining("exited with status 1. Last output:\n1 failing") },
    ],
    [
      "verify timing out continues",
      'completion_promise: DONE\nverify: "sleep 9"',
      facts({
        reply: "DONE",
        verify: { command: "sleep 9", exitCode: null, timedOut: true, timeoutS: 300, outputTail: "" },
      }),
      { kind: "continue", refusal: expect.stringMatching(/timed out after 300s\. /) },
    ],
    [
      "verify timing out on what until and the metric left says so, with the limit it had",
      'completion_promise: DONE\nverify: "sleep 900"\nverify_timeout: 5m',
      facts({
        reply: "DONE",
        verify: { command: "sleep 900", exitCode: null, timedOut: true, timeoutS: 42, outputTail: "" },
      }),
      {
        kind: "continue",
        refusal: expect.stringContaining(
          "timed out after 42s (what the commands before it left of 14m for all of them)",
        ),
      },
    ],
    [
      "unfinished todos refuse",
      "completion_promise: DONE\nrequire_todos_done: true",
      facts({ reply: "DONE", unfinishedTodos: [{ subject: "write docs", status: "pending" }] }),
      { kind: "continue", refusal: expect.stringContaining("[pending] write docs") },
    ],
    [
      "no unfinished todos completes",
      "completion_promise: DONE\nrequire_todos_done: true",
      facts({ reply: "DONE", unfinishedTodos: [] }),
      { kind: "end", reason: "completed" },
    ],
    [
      "a refused promise on the last turn ends at the cap with the reason",
      'completion_promise: DONE\nverify: "x"\niteration_count: 10',
      facts({ reply: "DONE", verify: { command: "x", exitCode: 2, timedOut: false, timeoutS: 300, outputTail: "" } }),
      { kind: "end", reason: "max_iterations", refusal: expect.stringContaining("status 2") },
    ],
    [
      "max_duration ends an old loop",
      "max_duration: 1h\nstarted_at: 2026-03-01T10:00:00Z",
      facts(),
      { kind: "end", reason: "max_duration" },
    ],
    [
      "max_duration with time left continues",
      "max_duration: 3h\nstarted_at: 2026-03-01T10:00:00Z",
      facts(),
      { kind: "continue" },
    ],
    [
      "max_tokens ends when the tally crosses",
      "max_tokens: 1000",
      facts({ usage: { total: 1200, byModel: { m: 1200 }, lastId: "a", lastTokens: 5, transcript: "t", offset: 9 } }),
      { kind: "end", reason: "max_tokens" },
    ],
    [
      "max_tokens below the budget continues",
      "max_tokens: 1000",
      facts({ usage: { total: 999, byModel: {}, lastId: "", lastTokens: 0, transcript: "t", offset: 9 } }),
      { kind: "continue" },
    ],
    [
      "stall ends after stall_limit unchanged turns",
      "stall_limit: 2\nruntime: {stall_count: 1, last_turn: SAME}",
      facts(),
      { kind: "continue", runtime: expect.objectContaining({ stall_count: 0 }) },
    ],
    [
      "the cap wins over duration and tokens",
      "iteration_count: 10\nmax_duration: 1s\nstarted_at: 2020-01-01T00:00:00Z\nmax_tokens: 1",
      facts({ usage: { total: 5, byModel: {}, lastId: "", lastTokens: 0, transcript: "t", offset: 1 } }),
      { kind: "end", reason: "max_iterations" },
    ],
    [
      "duration wins over tokens",
      "max_duration: 1s\nstarted_at: 2020-01-01T00:00:00Z\nmax_tokens: 1",
      facts({ usage: { total: 5, byModel: {}, lastId: "", lastTokens: 0, transcript: "t", offset: 1 } }),
      { kind: "end", reason: "max_duration" },
    ],
    [
      "completion wins over every limit",
      "completion_promise: DONE\niteration_count: 10\nmax_duration: 1s\nstarted_at: 2020-01-01T00:00:00Z",
      facts({ reply: "done" }),
      { kind: "end", reason: "completed" },
    ],
  ])("%s", (_name, front, f, expected) => {
    expect(decideStop(state(front), f, NOW)).toMatchObject(expected);
  });

  it("ends as stalled when identical turns reach the limit", () => {
    let s = state("stall_limit: 2\nmax_iterations: 50");
    const reasons: string[] = [];
    for (let turn = 0; turn < 5; turn++) {
      const d = decideStop(s, facts({ reply: "same reply", treeState: "tree" }), NOW);
      reasons.push(d.kind === "end" ? d.reason : d.kind);
      if (d.kind !== "continue") break;
      s = { ...s, iteration_count: d.next, runtime: d.runtime };
    }
    expect(reasons).toEqual(["continue", "continue", "stalled"]);
  });

  it("a changed working tree is progress even with the same reply", () => {
    let s = state("stall_limit: 2");
    for (const tree of ["a", "b", "c", "d"]) {
      const d = decideStop(s, facts({ reply: "same", treeState: tree }), NOW);
      expect(d.kind).toBe("continue");
      if (d.kind === "continue") s = { ...s, iteration_count: d.next, runtime: d.runtime };
    }
  });

  it("an unknown working tree is never counted as unchanged", () => {
    let s = state("stall_limit: 1");
    const first = decideStop(s, facts({ reply: "same" }), NOW);
    expect(first).toMatchObject({ kind: "continue", runtime: { stall_count: 0, last_tree: "" } });
    if (first.kind === "continue") s = { ...s, iteration_count: first.next, runtime: first.runtime };
    // Same reply, tree read now for the first time: nothing to compare with yet.
    const second = decideStop(s, facts({ reply: "same", treeState: "abc" }), NOW);
    expect(second).toMatchObject({ kind: "continue", runtime: { stall_count: 0, last_tree: "abc" } });
    if (second.kind === "continue") s = { ...s, iteration_count: second.next, runtime: second.runtime };
    expect(decideStop(s, facts({ reply: "same", treeState: "abc" }), NOW)).toMatchObject({
      kind: "end",
      reason: "stalled",
    });
  });

  /** Runs turns with the same reply; each turn's tool calls (outside git: tree "") as given; the decisions' kinds. */
  const runTurns = (front: string, turns: { treeState?: string; toolCalls?: string }[]) => {
    let s = state(front);
    const kinds: string[] = [];
    for (const [i, turn] of turns.entries()) {
      // The first turn's reply is new: the hooks read neither tree nor calls for it.
      const d = decideStop(s, facts({ reply: "Done.", ...(i > 0 && turn) }), NOW);
      kinds.push(d.kind === "end" ? d.reason : d.kind);
      if (d.kind !== "continue") break;
      s = { ...s, iteration_count: d.next, runtime: d.runtime };
    }
    return kinds;
  };

  it("outside git, a turn that called no tool with the same reply is unchanged: it stalls as it always did", () => {
    expect(runTurns("stall_limit: 2", [{}, { treeState: "" }, { treeState: "", toolCalls: "" }, {}])).toEqual([
      "continue",
      "continue",
      "stalled",
    ]);
  });

  it("outside git, the same reply with other tool calls each turn is work: the loop runs on", () => {
    const turns = ["a", "b", "c", "d", "e", "f"].map((toolCalls) => ({ treeState: "", toolCalls }));
    expect(runTurns("stall_limit: 2\nmax_iterations: 50", turns)).toEqual(Array(6).fill("continue"));
  });

  it("outside git, the same reply and the same tool calls stall, a turn later: the first repeat has nothing to compare with", () => {
    const turns = Array.from({ length: 6 }, () => ({ treeState: "", toolCalls: "c1" }));
    expect(runTurns("stall_limit: 2\nmax_iterations: 50", turns)).toEqual([
      "continue",
      "continue",
      "continue",
      "stalled",
    ]);
  });

  it("outside git, a turn that calls tools after one that called none is not unchanged", () => {
    const turns = [{}, { treeState: "", toolCalls: "" }, { treeState: "", toolCalls: "c1" }, { treeState: "" }];
    expect(runTurns("stall_limit: 2", turns)).toEqual(["continue", "continue", "continue", "continue"]);
    expect(runTurns("stall_limit: 2", [...turns, { treeState: "" }])).toEqual([
      "continue",
      "continue",
      "continue",
      "continue",
      "stalled",
    ]);
  });

  it("in a git repository the tree decides: other tool calls with the same tree and reply still stall", () => {
    const turns = ["a", "b", "c", "d"].map((toolCalls) => ({ treeState: "tree", toolCalls }));
    expect(runTurns("stall_limit: 2", turns)).toEqual(["continue", "continue", "continue", "stalled"]);
  });

  it("a wait for background work keeps the last turn's tool calls", () => {
    const s = { ...state("stall_limit: 2"), runtime: { ...makeRuntime(), last_turn: "x", last_calls: "c1" } };
    const running = { running: [{ id: "b1", type: "shell", description: "npm test" }], module: false, waitTag: true };
    const d = decideStop(s, facts({ reply: "Done.", treeState: "", toolCalls: "c2", background: running }), NOW);
    expect(d).toMatchObject({ kind: "hold", runtime: { last_calls: "c1" } });
  });

  it.each([
    ["a repeated reply", "stall_limit: 3", "Same  REPLY", true],
    ["a new reply", "stall_limit: 3", "other", false],
    ["stall detection off", "stall_limit: 0", "same reply", false],
  ])("needsTreeState: %s", (_name, front, reply, expected) => {
    const s = state(front);
    const last = decideStop(s, facts({ reply: "same reply" }), NOW);
    expect(needsTreeState({ ...s, runtime: last.kind === "continue" ? last.runtime : s.runtime }, reply)).toBe(
      expected,
    );
  });

  it("stall_limit 0 never stalls", () => {
    const s = { ...state("stall_limit: 0"), runtime: { ...makeRuntime(), stall_count: 99 } };
    expect(decideStop(s, facts(), NOW).kind).toBe("continue");
  });

  it.each([
    ["no promise", "verify: x", "DONE", { verify: false, todos: false }],
    ["promise seen, verify set", "completion_promise: DONE\nverify: x", "done", { verify: true, todos: false }],
    [
      "promise seen, todos gate",
      "completion_promise: DONE\nrequire_todos_done: true",
      "done",
      { verify: false, todos: true },
    ],
    [
      "promise seen below threshold",
      "completion_promise: DONE\nverify: x\ncompletion_threshold: 3",
      "done",
      { verify: false, todos: false },
    ],
    ["promise missing", "completion_promise: DONE\nverify: x", "not yet", { verify: false, todos: false }],
  ])("needsEvidence: %s", (_name, front, reply, expected) => {
    expect(needsEvidence(state(front), reply)).toEqual(expected);
  });
});

describe("renderRunStatus: how a user's command ended, in the words sent to Claude and kept in the history", () => {
  const run = { exitCode: null, timedOut: false };
  it("a command that never started names why, and the machine's limits only when they are the cause", () => {
    expect(renderRunStatus({ ...run, ended: { notStarted: "spawn /bin/sh EAGAIN" } }, 300)).toBe(
      "could not start (spawn /bin/sh EAGAIN): too many processes running, or no memory left",
    );
    expect(renderRunStatus({ ...run, ended: { notStarted: "spawn /bin/sh ENOENT" } }, 300)).toBe(
      "could not start (spawn /bin/sh ENOENT)",
    );
  });
  it("a signal is named; a timeout and an exit status read as before", () => {
    expect(renderRunStatus({ ...run, ended: { signal: "SIGTERM" } }, 300)).toBe("was ended by signal SIGTERM");
    expect(renderRunStatus({ ...run, timedOut: true }, 300)).toBe("timed out after 300s");
    expect(renderRunStatus({ ...run, exitCode: 3 }, 300)).toBe("exited with status 3");
  });
});
