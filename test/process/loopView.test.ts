// The band's view of a loop (docs/REFERENCE.md "Files the loop keeps"): the Stop hook keeps it beside the
// loop's files, made from the very texts it wrote; `continuation-loop view` makes one for the companion
// module when the files changed since. Both through the bundled hooks, as processes.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseLoopView } from "../../src/core/loopView.js";
import { makeProject, runHook } from "../support/runHook.js";
import { removeTemps, runCli } from "./support/cli.js";

afterAll(removeTemps);

const TEXT = "---\nmax_iterations: 3\ncompletion_promise: DONE\nchecklist: PLAN.md\n---\n\nWork through the plan.\n";
const PLAN = "# Plan\n\n- [x] Write the parser\n- [ ] Fix the parser\n- [ ] Ship it\n";

const stop = (root: string, reply = "working") =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const pathsOf = (statePath: string) => ({
  sidecar: statePath.replace(/\.local\.md$/, ".runtime.json"),
  view: statePath.replace(/\.local\.md$/, ".view.json"),
});

function project() {
  const made = makeProject(TEXT);
  writeFileSync(join(made.root, "PLAN.md"), PLAN);
  return { ...made, ...pathsOf(made.statePath) };
}

describe("the Stop hook's view", () => {
  it("holds the state file and sidecar as the Stop left them, and what it decided", () => {
    const { root, statePath, sidecar, view } = project();
    for (const turn of [1, 2]) {
      expect(stop(root, `turn ${turn}`).code).toBe(2);
      const kept = parseLoopView(readFileSync(view, "utf8"));
      expect(kept?.state_text).toBe(readFileSync(statePath, "utf8"));
      expect(kept?.sidecar_text).toBe(readFileSync(sidecar, "utf8"));
      expect(kept?.state).toMatchObject({ iteration_count: turn + 1, max_iterations: 3, session_id: "s1" });
      expect(kept?.checklist).toBe("1/3");
    }
  });

  it("follows a pause for Claude's question, and goes with the loop's end", () => {
    const { root, statePath, sidecar, view } = project();
    expect(stop(root).code).toBe(2);
    stop(root, "Two ways to go. <loop-pause>Keep the old API or break it?</loop-pause>");
    const paused = parseLoopView(readFileSync(view, "utf8"));
    expect(paused?.state_text).toBe(readFileSync(statePath, "utf8"));
    expect(paused?.sidecar_text).toBe(readFileSync(sidecar, "utf8"));
    expect(paused?.runtime.pause?.reason).toBe("question");
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("max_iterations: 3", "max_iterations: 2"));
    writeFileSync(sidecar, readFileSync(sidecar, "utf8").replace(/"pause": \{[^}]*\}/, '"pause": null'));
    expect(stop(root).code).toBe(0);
    expect(existsSync(statePath)).toBe(false);
    expect(existsSync(view)).toBe(false);
  });

  it("is replaced, never written through, when a symlink stands in its place", () => {
    const { root, view } = project();
    const elsewhere = join(root, "elsewhere.txt");
    writeFileSync(elsewhere, "mine\n");
    symlinkSync(elsewhere, view);
    expect(stop(root).code).toBe(2);
    expect(readFileSync(elsewhere, "utf8")).toBe("mine\n");
    expect(lstatSync(view).isSymbolicLink()).toBe(false);
    expect(parseLoopView(readFileSync(view, "utf8"))).toBeDefined();
  });

  it("follows the /clear handover of a fresh_context loop, checklist count kept: the module runs nothing for it", () => {
    const { root, statePath, sidecar, view } = project();
    writeFileSync(statePath, TEXT.replace("checklist:", "fresh_context: true\nchecklist:"));
    const live = { CONTINUATION_LOOP_MODULE_LIVE: "2.1.332", CLAUDECODE: "1", CLAUDE_PID: "4242" };
    const session = (body: object) => runHook("session", { cwd: root, ...body }, { env: live });
    const first = runHook(
      "stop",
      { session_id: "old", cwd: root, hook_event_name: "Stop", last_assistant_message: "working" },
      { env: { ...live, CONTINUATION_LOOP_STOP_ID: "stop-id-0000" } },
    );
    expect(first.code).toBe(0);
    session({ hook_event_name: "SessionEnd", session_id: "old", reason: "clear" });
    session({ hook_event_name: "SessionStart", session_id: "new", source: "clear" });
    const kept = parseLoopView(readFileSync(view, "utf8"));
    expect(readFileSync(statePath, "utf8")).toContain('session_id: "new"');
    expect(kept?.state_text).toBe(readFileSync(statePath, "utf8"));
    expect(kept?.sidecar_text).toBe(readFileSync(sidecar, "utf8"));
    expect(kept?.state.session_id).toBe("new");
    expect(kept?.checklist).toBe("1/3");
  });

  it("is one of the loop's own files: rewriting it at every Stop is no change of the working tree", () => {
    const { root, statePath, view } = project();
    writeFileSync(statePath, TEXT.replace("max_iterations: 3", "max_iterations: 10\nstall_limit: 2"));
    execFileSync("git", ["init", "-q"], { cwd: root });
    const answers = [1, 2, 3, 4].map(() => stop(root, "Same reply, nothing done."));
    expect(answers.map((a) => a.code)).toEqual([2, 2, 2, 0]);
    expect(answers[3]?.stdout).toMatch(/loop stalled/);
    expect(existsSync(view)).toBe(false);
  });

  it("follows each cost figure a status line records, so the module runs nothing for them", () => {
    const { root, statePath, sidecar, view } = project();
    expect(stop(root).code).toBe(2);
    for (const cost of [0.5, 0.75]) {
      const input = { session_id: "s1", cwd: root, workspace: { project_dir: root }, cost: { total_cost_usd: cost } };
      expect(runHook("cli", input, { args: ["statusline"] }).code).toBe(0);
      const kept = parseLoopView(readFileSync(view, "utf8"));
      expect(kept?.sidecar_text).toBe(readFileSync(sidecar, "utf8"));
      expect(kept?.state_text).toBe(readFileSync(statePath, "utf8"));
      expect(kept?.runtime.spend).toMatchObject({ figure: cost, source: "status line" });
      expect(kept?.checklist).toBe("1/3");
    }
  });

  it("goes with /loop-stop", () => {
    const { root, view } = project();
    expect(stop(root).code).toBe(2);
    expect(existsSync(view)).toBe(true);
    expect(runCli(["stop"], { cwd: root }).code).toBe(0);
    expect(existsSync(view)).toBe(false);
  });
});

describe("continuation-loop view", () => {
  it("prints the view of the files as they are, a hand edit included", () => {
    const { root, statePath, sidecar } = project();
    expect(stop(root).code).toBe(2);
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("max_iterations: 3", "max_iterations: 40"));
    const run = runCli(["view", "--name", "default"], { cwd: root });
    expect(run.code).toBe(0);
    const view = parseLoopView(run.stdout);
    expect(view?.state_text).toBe(readFileSync(statePath, "utf8"));
    expect(view?.sidecar_text).toBe(readFileSync(sidecar, "utf8"));
    expect(view?.state).toMatchObject({ max_iterations: 40, iteration_count: 2 });
    expect(view?.runtime.output_tokens).toBeTypeOf("number");
    expect(view?.checklist).toBe("1/3");
  });

  it("refuses a state file it cannot read in one line naming the file, exit 1", () => {
    const { root, statePath } = project();
    writeFileSync(statePath, "---\nmax_iterations: [\n---\n\nGoal.\n");
    const bad = runCli(["view"], { cwd: root });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/^continuation-loop: \.claude\/continuation-loop\.local\.md.*line 2/);
    const missing = runCli(["view", "--name", "docs"], { cwd: root });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain(".claude/continuation-loop.docs.local.md");
    expect(runCli(["view", "--name", "../x"], { cwd: root }).code).toBe(2);
  });
});
