// What the command hooks do with what the companion module hands them (docs/REFERENCE.md "The companion module"):
// Claude Code's cost figure, the id that marks this Stop's continuation, the module's own prompts; and
// /loop-pause, which the module runs mid-turn through the CLI.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const LIVE = { CONTINUATION_LOOP_MODULE_LIVE: "2.1.331" };
const stop = (root: string, env: Record<string, string> = {}) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "working" }, { env });
const sidecar = (root: string) =>
  JSON.parse(readFileSync(`${root}/.claude/continuation-loop.runtime.json`, "utf8")) as Record<string, unknown>;

describe("the Stop hook with the module live", () => {
  it("records the module's cost figure from the one the loop's first turn began at, and ends at max_cost", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 50\nmax_cost: 1\nsession_id: s1\n---\nGoal\n");
    const first = stop(root, { ...LIVE, CONTINUATION_LOOP_TURN_COST_USD: "0.25", CONTINUATION_LOOP_COST_USD: "0.5" });
    expect(first.code).toBe(2);
    expect(sidecar(root)).toMatchObject({ spend: { baseline: 0.25, figure: 0.5, source: "module" } });
    expect(stop(root, { ...LIVE, CONTINUATION_LOOP_COST_USD: "1.0" }).code).toBe(2);
    // /clear restarts the session's figure at zero: the spend so far is carried.
    expect(stop(root, { ...LIVE, CONTINUATION_LOOP_COST_USD: "0.1" }).code).toBe(2);
    expect(sidecar(root)).toMatchObject({ spend: { figure: 0.1, baseline: -0.75 } });
    const end = stop(root, { ...LIVE, CONTINUATION_LOOP_COST_USD: "0.35" });
    expect(end.code).toBe(0);
    expect(String(end.json?.systemMessage)).toMatch(/reached max_cost.*\$1\.10 spent/);
    const status = readFileSync(historyPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(status.at(-1)).toMatchObject({ decision: "end", reason: "max_cost", cost_usd: 1.1 });
  });

  it("carries the spend when Claude Code was started again (run's restart), though the new figure is not below the last", () => {
    const { root } = makeProject("---\nmax_iterations: 50\nmax_cost: 1\nsession_id: s1\n---\nGoal\n");
    const process1 = { ...LIVE, CLAUDE_PID: "1001" };
    expect(
      stop(root, { ...process1, CONTINUATION_LOOP_TURN_COST_USD: "0", CONTINUATION_LOOP_COST_USD: "0.4" }).code,
    ).toBe(2);
    // Killed mid-iteration and started again: the new process's figure counts from zero.
    const process2 = { ...LIVE, CLAUDE_PID: "2002" };
    expect(
      stop(root, { ...process2, CONTINUATION_LOOP_TURN_COST_USD: "0", CONTINUATION_LOOP_COST_USD: "0.4" }).code,
    ).toBe(2);
    expect(sidecar(root)).toMatchObject({ spend: { figure: 0.4, baseline: -0.4 } });
    const end = stop(root, { ...process2, CONTINUATION_LOOP_TURN_COST_USD: "0.4", CONTINUATION_LOOP_COST_USD: "0.8" });
    expect(end.code).toBe(0);
    expect(String(end.json?.systemMessage)).toMatch(/reached max_cost.*\$1\.20 spent/);
  });

  it("goes on from the session's own figure when a new process gives it back (--continue, --resume): nothing counted twice", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 50\nmax_cost: 0.3\nsession_id: s1\n---\nGoal\n");
    const process1 = { ...LIVE, CLAUDE_PID: "1001" };
    expect(
      stop(root, { ...process1, CONTINUATION_LOOP_TURN_COST_USD: "0", CONTINUATION_LOOP_COST_USD: "0.1" }).code,
    ).toBe(2);
    // Claude Code restarted (an update, say) and the session continued: its figure starts where it was.
    const process2 = { ...LIVE, CLAUDE_PID: "2002" };
    expect(
      stop(root, { ...process2, CONTINUATION_LOOP_TURN_COST_USD: "0.1", CONTINUATION_LOOP_COST_USD: "0.15" }).code,
    ).toBe(2);
    const spend = sidecar(root).spend as { figure: number; baseline: number };
    expect(spend.figure - spend.baseline).toBeCloseTo(0.15, 9);
    const end = stop(root, { ...process2, CONTINUATION_LOOP_TURN_COST_USD: "0.15", CONTINUATION_LOOP_COST_USD: "0.3" });
    expect(end.code).toBe(0);
    expect(String(end.json?.systemMessage)).toMatch(/reached max_cost.*\$0\.30 spent/);
    const last = JSON.parse(readFileSync(historyPath, "utf8").trim().split("\n").at(-1) ?? "{}");
    expect(last).toMatchObject({ decision: "end", reason: "max_cost", cost_usd: 0.3 });
  });

  it("carries the spend of a restart once, though the Stops after it wait for background work", () => {
    const { root } = makeProject("---\nmax_iterations: 50\nmax_cost: 5\nsession_id: s1\n---\nGoal\n");
    const build = { id: "b1", type: "shell", status: "running", description: "build", command: "make" };
    const waiting = (env: Record<string, string>) =>
      runHook(
        "stop",
        {
          session_id: "s1",
          cwd: root,
          hook_event_name: "Stop",
          last_assistant_message: "w",
          background_tasks: [build],
        },
        { env },
      );
    const cost = (figure: string) => ({
      CONTINUATION_LOOP_STOP_ID: "test-stop-1",
      CONTINUATION_LOOP_TURN_COST_USD: "0",
      CONTINUATION_LOOP_COST_USD: figure,
    });
    expect(stop(root, { ...LIVE, CLAUDE_PID: "1001", ...cost("0.4") }).code).toBe(0);
    // Started again; its Stops hold for the build and go on, each with a figure from zero.
    expect(waiting({ ...LIVE, CLAUDE_PID: "2002", ...cost("0.4") }).code).toBe(0);
    expect(waiting({ ...LIVE, CLAUDE_PID: "2002", ...cost("0.5") }).code).toBe(0);
    const spend = sidecar(root).spend as { figure: number; baseline: number };
    expect(spend.figure - spend.baseline).toBeCloseTo(0.9);
  });

  it("ignores a cost figure when the module is not live, and a figure that is not a number", () => {
    const { root } = makeProject("---\nmax_iterations: 50\nsession_id: s1\n---\nGoal\n");
    expect(stop(root, { CONTINUATION_LOOP_COST_USD: "0.5" }).code).toBe(2);
    expect(sidecar(root).spend).toBeNull();
    expect(stop(root, { ...LIVE, CONTINUATION_LOOP_COST_USD: "lots" }).code).toBe(2);
    expect(sidecar(root).spend).toBeNull();
  });

  it("hands the module its continuation as context ending with the id it gave, and only then", () => {
    const { root } = makeProject("---\nmax_iterations: 50\nsession_id: s1\n---\nGoal\n");
    const plain = stop(root);
    expect(plain.code).toBe(2);
    expect(plain.stderr).not.toContain("[continuation-loop stop");
    const marked = stop(root, { ...LIVE, CONTINUATION_LOOP_STOP_ID: "abc-123-xyz" });
    // Context beside the other Stop hooks' answers, not a block that would stand for all of them.
    expect(marked.code).toBe(0);
    expect(marked.stderr).toBe("");
    const out = JSON.parse(marked.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe("Stop");
    expect(out.hookSpecificOutput.additionalContext).toContain("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]");
    expect(out.hookSpecificOutput.additionalContext.endsWith("\n[continuation-loop stop abc-123-xyz]\n")).toBe(true);
    const bad = stop(root, { CONTINUATION_LOOP_STOP_ID: "bad id with spaces" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain("[continuation-loop stop");
  });
});

describe("the prompt hook and the module's own prompts", () => {
  it("gives the loop's continuation no todo reminder and never resumes a paused loop with it", () => {
    const { root, statePath } = makeProject("---\nactive: false\nmax_iterations: 5\nsession_id: s1\n---\nGoal\n");
    const r = runHook("prompt", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "UserPromptSubmit",
      prompt: "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE] iteration 2/5: keep going.",
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(readFileSync(statePath, "utf8")).toContain("active: false");
  });
});

describe("pausing", () => {
  it("/loop-pause and `continuation-loop pause` pause the session's loop, keeping file and counters", () => {
    const { root, statePath, historyPath } = makeProject(
      "---\nmax_iterations: 5\niteration_count: 3\nsession_id: s1\n---\nGoal\n",
    );
    const r = runHook("prompt", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "UserPromptSubmit",
      prompt: "/loop-pause",
    });
    expect(String(r.json?.reason)).toMatch(/paused at iteration 3\/5/);
    expect(readFileSync(statePath, "utf8")).toContain("active: false");
    expect(readFileSync(statePath, "utf8")).toContain("iteration_count: 3");
    expect(stop(root).code).toBe(0);
    const again = runHook("cli", "", {
      args: ["pause"],
      env: { CLAUDE_PROJECT_DIR: root, CLAUDE_CODE_SESSION_ID: "s1" },
    });
    expect(again.stdout).toMatch(/already paused/);
    expect(readFileSync(historyPath, "utf8")).toContain('"reason":"paused"');
  });
});
