import { describe, expect, it } from "vitest";
import { assessReply } from "../../src/core/assessReply.js";
import {
  decideOwnership,
  decideStateUpdates,
  decideStop as decideTurn,
  type StopFacts,
} from "../../src/core/decideStop.js";
import { parseChecklist } from "../../src/core/checklist.js";
import type { LoopState } from "../../src/core/parseState.js";
import { parseFrontmatter } from "../../src/core/frontmatter.js";
import { parseState } from "../../src/core/parseState.js";
import { makeRuntime, type Runtime } from "../../src/core/sidecar.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");

/** A loop's state with the runtime its sidecar holds (the two travel apart in the hooks). */
type S = LoopState & { runtime?: Runtime };
type Given = StopFacts & { sessionId: string | undefined; reply: string };

/** A `runtime:` map in the test's frontmatter stands for what the sidecar holds. */
function state(front: string): S {
  const text = `---\n${front}\n---\nGoal\n`;
  const runtime = parseFrontmatter(text).data.runtime as Partial<Runtime> | undefined;
  return { ...parseState(text), ...(runtime && { runtime: { ...makeRuntime(), ...runtime } }) };
}
const facts = (over: Partial<Given> = {}): Given => ({ sessionId: "s1", reply: "working on it", ...over });

/** The Stop hook's pure steps in order: ownership, the reply's assessment, the decision, the file's updates. */
function decideStop(s: S, f: Given, now: number) {
  const ownership = decideOwnership(s, f.sessionId);
  if (ownership === "other") return { kind: "ignore" as const, why: "other_session" };
  if (ownership === "paused") return { kind: "ignore" as const, why: "paused" };
  const runtime = s.runtime ?? makeRuntime();
  const d = decideTurn(s, runtime, assessReply(s, runtime, f.reply, f.checklist), f, now);
  return d.kind === "continue" ? { ...d, updates: decideStateUpdates(s, f.sessionId, now) } : d;
}
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
      facts({ reply: "DONE", verify: { command: "true", exitCode: 0, timedOut: false, outputTail: "" } }),
      { kind: "end", reason: "completed" },
    ],
    [
      "verify failing continues with a reason",
      'completion_promise: DONE\nverify: "npm test"',
      facts({ reply: "DONE", verify: { command: "npm test", exitCode: 1, timedOut: false, outputTail: "1 failing" } }),
      { kind: "continue", refusal: expect.stringContaining("exited with status 1. Last output:\n1 failing") },
    ],
    [
      "verify timing out continues",
      'completion_promise: DONE\nverify: "sleep 9"',
      facts({ reply: "DONE", verify: { command: "sleep 9", exitCode: null, timedOut: true, outputTail: "" } }),
      { kind: "continue", refusal: expect.stringContaining("timed out") },
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
      facts({ reply: "DONE", verify: { command: "x", exitCode: 2, timedOut: false, outputTail: "" } }),
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

  it("outside git the reply alone decides", () => {
    let s = state("stall_limit: 2");
    const kinds: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const d = decideStop(s, facts({ reply: "same", ...(turn > 0 && { treeState: "" }) }), NOW);
      kinds.push(d.kind === "end" ? d.reason : d.kind);
      if (d.kind !== "continue") break;
      s = { ...s, iteration_count: d.next, runtime: d.runtime };
    }
    expect(kinds).toEqual(["continue", "continue", "stalled"]);
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

describe("checklist", () => {
  const plan = (text: string) => parseChecklist(text);
  const open = plan("- [x] Write the test\n- [ ] Fix the parser\n");
  const done = plan("- [x] Write the test\n- [x] Fix the parser\n");
  const base = 'checklist: PLAN.md\ncompletion_promise: "DONE"\nmax_iterations: 10';

  it.each([
    [
      "promise, a box open: refused, continues",
      base,
      "DONE",
      open,
      "continue",
      /1\/2 boxes checked; the next open box \(line 2\): Fix the parser/,
    ],
    ["promise, every box checked: completed", base, "DONE", done, "end", undefined],
    ["no promise, every box checked: completed by the checklist", base, "still going", done, "end", undefined],
    ["no promise phrase at all, every box checked: completed", "checklist: PLAN.md", "ok", done, "end", undefined],
    ["no promise, a box open: continues, no refusal", base, "still going", open, "continue", undefined],
  ] as const)("%s", (_name, front, reply, list, kind, refusal) => {
    const d = decideStop(state(front), facts({ reply, checklist: list }), NOW);
    expect(d.kind).toBe(kind);
    if (d.kind === "end") expect(d.reason).toBe("completed");
    if (refusal) expect("refusal" in d && d.refusal).toMatch(refusal);
    else if (d.kind === "continue") expect(d.refusal).toBeUndefined();
  });

  it("an open box refuses before verify and todos are even gathered", () => {
    const s = state(`${base}\nverify: "npm test"\nrequire_todos_done: true`);
    expect(assessReply(s, makeRuntime(), "DONE", open)).toMatchObject({
      due: false,
      needsVerify: false,
      needsTodos: false,
    });
    expect(assessReply(s, makeRuntime(), "DONE", done)).toMatchObject({
      due: true,
      needsVerify: true,
      needsTodos: true,
    });
    // Every box checked: verify still confirms, promise or not.
    expect(assessReply(s, makeRuntime(), "no phrase", done)).toMatchObject({ due: true, needsVerify: true });
  });

  it("a checked box is progress: the same reply on the same tree does not count as unchanged", () => {
    const s = state(
      `${base}\nstall_limit: 2\nruntime: { stall_count: 1, last_turn: "${assessReply(state(base), makeRuntime(), "same").turn}", last_tree: "t", checklist_done: 0 }`,
    );
    const progressed = decideStop(
      s,
      facts({ reply: "same", treeState: "t", checklist: plan("- [x] a\n- [ ] b\n") }),
      NOW,
    );
    expect(progressed).toMatchObject({ kind: "continue", runtime: { stall_count: 0, checklist_done: 1 } });
    const stalled = decideStop(s, facts({ reply: "same", treeState: "t", checklist: plan("- [ ] a\n- [ ] b\n") }), NOW);
    expect(stalled).toMatchObject({ kind: "end", reason: "stalled" });
  });
});

describe("<loop-pause>", () => {
  it.each([
    [
      "a question",
      "I need a decision. <loop-pause>Which database, Postgres or SQLite?</loop-pause>",
      "Which database, Postgres or SQLite?",
    ],
    ["any letter case, whitespace folded", "<LOOP-PAUSE>\n  Ship   it?\n</Loop-Pause>", "Ship it?"],
    ["an empty tag still pauses", "<loop-pause></loop-pause>", "(no question given)"],
  ])("%s pauses the loop instead of continuing it", (_name, reply, question) => {
    const d = decideStop(state("max_iterations: 10\nstall_limit: 2"), facts({ reply }), NOW);
    expect(d).toMatchObject({
      kind: "pause",
      iteration: 1,
      question,
      runtime: { pause: { reason: "question", text: question } },
    });
  });

  it("completion comes first; a reply without the tag continues", () => {
    const s = state('completion_promise: "DONE"');
    expect(decideStop(s, facts({ reply: "DONE <loop-pause>Anything else?</loop-pause>" }), NOW)).toMatchObject({
      kind: "end",
      reason: "completed",
    });
    expect(decideStop(s, facts({ reply: "no tag, <loop-pause> unclosed" }), NOW)).toMatchObject({ kind: "continue" });
  });
});

describe("until: a command that says when the goal is met", () => {
  const run = (exitCode: number | null, timedOut = false) => ({
    command: "npm test",
    exitCode,
    timedOut,
    outputTail: "FAIL test/a.test.ts\n1 failed",
  });
  /** The decision as the Stop hook makes it: the until result passed to the assessment too. */
  const decideUntil = (front: string, reply: string, until: ReturnType<typeof run>, extra: Partial<Given> = {}) => {
    const s = state(`until: "npm test"\n${front}`);
    const f = facts({ reply, until, ...extra });
    const a = assessReply(s, makeRuntime(), reply, f.checklist, false, until.exitCode === 0);
    return { decision: decideTurn(s, makeRuntime(), a, f, NOW), assessment: a };
  };

  it("exit 0 completes the loop, with no promise", () => {
    expect(decideUntil("", "still going", run(0)).decision).toMatchObject({ kind: "end", reason: "completed" });
  });

  it("exit 0 completes a loop that has a promise, without it", () => {
    expect(decideUntil("completion_promise: DONE", "still going", run(0)).decision).toMatchObject({
      kind: "end",
      reason: "completed",
    });
  });

  it("a failure sends Claude back with the command, its status and the output's tail", () => {
    const { decision } = decideUntil("", "still going", run(1));
    expect(decision).toMatchObject({ kind: "continue", next: 2 });
    expect(decision.kind === "continue" && decision.untilFailure).toBe(
      "the until command `npm test` exited with status 1, so the goal is not met yet. Last output:\nFAIL test/a.test.ts\n1 failed",
    );
  });

  it("a timeout is told as a timeout", () => {
    const { decision } = decideUntil("verify_timeout: 30s", "x", run(null, true));
    expect(decision.kind === "continue" && decision.untilFailure).toContain("`npm test` timed out after 30s");
  });

  it("a failure refuses the promise", () => {
    const { decision, assessment } = decideUntil("completion_promise: DONE", "DONE", run(2));
    expect(assessment.due).toBe(false);
    expect(decision).toMatchObject({ kind: "continue" });
    expect(decision.kind === "continue" && decision.refusal).toContain("`npm test` exited with status 2");
  });

  it("verify and the checklist still apply after until passed", () => {
    const verified = decideUntil("verify: make lint", "x", run(0), {
      verify: { command: "make lint", exitCode: 1, timedOut: false, outputTail: "lint error" },
    });
    expect(verified.assessment.needsVerify).toBe(true);
    expect(verified.decision).toMatchObject({ kind: "continue" });
    expect(verified.decision.kind === "continue" && verified.decision.refusal).toContain("make lint");
    const open = parseChecklist("- [x] a\n- [ ] b\n");
    const listed = decideUntil("checklist: PLAN.md", "x", run(0), { checklist: open });
    expect(listed.decision.kind === "continue" && listed.decision.refusal).toContain("1/2 boxes checked");
  });

  it("at the last iteration a failure ends the loop at its limit", () => {
    expect(decideUntil("iteration_count: 10", "x", run(1)).decision).toMatchObject({
      kind: "end",
      reason: "max_iterations",
    });
  });
});
