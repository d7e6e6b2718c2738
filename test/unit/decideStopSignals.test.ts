import { describe, expect, it } from "vitest";
import { assessReply } from "../../src/core/assessReply.js";
import { decideStop as decideTurn } from "../../src/core/decideStop.js";
import { parseChecklist } from "../../src/core/checklist.js";
import { makeRuntime } from "../../src/core/sidecar.js";
import { decideStop, facts, type Given, NOW, state } from "../support/decideStop.js";

// What the work itself says at a Stop: the checklist's progress, Claude's <loop-pause> question, the until command.
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
  const run = (exitCode: number | null, timedOut = false, timeoutS = 300) => ({
    command: "npm test",
    exitCode,
    timedOut,
    timeoutS,
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
    const { decision } = decideUntil("verify_timeout: 30s", "x", run(null, true, 30));
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
      verify: { command: "make lint", exitCode: 1, timedOut: false, timeoutS: 300, outputTail: "lint error" },
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
