// The sidecar's view of the state file (docs/REFERENCE.md "Files the loop keeps"): every writer saves it, through
// the one state-file transaction, with the text it committed and the checklist counted then; a loop's end takes
// the sidecar with it; `continuation-loop view` prints what the hooks would save for a hand edit. All through
// the bundled hooks, as processes.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { digestOf, readSidecarView } from "../../src/core/sidecar.js";
import { makeProject, runHook } from "../support/runHook.js";
import { removeTemps, runCli } from "./support/cli.js";

afterAll(removeTemps);

const TEXT = "---\nmax_iterations: 3\ncompletion_promise: DONE\nchecklist: PLAN.md\n---\n\nWork through the plan.\n";
const PLAN = "# Plan\n\n- [x] Write the parser\n- [ ] Fix the parser\n- [ ] Ship it\n";

const stop = (root: string, reply = "working", session = "s1") =>
  runHook("stop", { session_id: session, cwd: root, hook_event_name: "Stop", last_assistant_message: reply });

function project() {
  const made = makeProject(TEXT);
  writeFileSync(join(made.root, "PLAN.md"), PLAN);
  return { ...made, sidecar: made.statePath.replace(/\.local\.md$/, ".runtime.json") };
}

/** The view the sidecar holds, checked to be of the state file as it is now. */
function viewOf(statePath: string, sidecar: string) {
  const read = readSidecarView(readFileSync(sidecar, "utf8"));
  expect(read?.digest).toBe(digestOf(readFileSync(statePath, "utf8")));
  return read?.view;
}

const checkBox = (root: string) =>
  writeFileSync(join(root, "PLAN.md"), PLAN.replace("- [ ] Fix the parser", "- [x] Fix the parser"));

describe("the sidecar's view, saved by every writer with the text it committed", () => {
  it("a Stop: the fields it wrote, its bookkeeping and the checklist as it reads", () => {
    const { root, statePath, sidecar } = project();
    expect(stop(root, "turn 1").code).toBe(2);
    expect(viewOf(statePath, sidecar)).toMatchObject({
      state: { iteration_count: 2, max_iterations: 3, session_id: "s1" },
      checklist: "1/3",
    });
    checkBox(root);
    expect(stop(root, "turn 2").code).toBe(2);
    expect(viewOf(statePath, sidecar)).toMatchObject({ state: { iteration_count: 3 }, checklist: "2/3" });
    expect(readdirSync(join(root, ".claude")).filter((name) => name.includes("view"))).toEqual([]);
  });

  it("a cost figure from the status line: the spend, and the checklist counted again, never carried", () => {
    const { root, statePath, sidecar } = project();
    expect(stop(root).code).toBe(2);
    checkBox(root);
    for (const cost of [0.5, 0.75]) {
      const input = { session_id: "s1", cwd: root, workspace: { project_dir: root }, cost: { total_cost_usd: cost } };
      expect(runHook("cli", input, { args: ["statusline"] }).code).toBe(0);
      const view = viewOf(statePath, sidecar);
      expect(view?.runtime.spend).toMatchObject({ figure: cost, source: "status line" });
      expect(view?.checklist).toBe("2/3");
    }
  });

  it("a pause for Claude's question, and a hand edit the next save carries; the loop's end takes the sidecar", () => {
    const { root, statePath, sidecar } = project();
    expect(stop(root).code).toBe(2);
    stop(root, "Two ways to go. <loop-pause>Keep the old API or break it?</loop-pause>");
    expect(viewOf(statePath, sidecar)?.runtime.pause?.reason).toBe("question");
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("max_iterations: 3", "max_iterations: 2"));
    // The user's answer: the loop goes on, and the view is of the edited file.
    const answer = runHook("prompt", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "UserPromptSubmit",
      prompt: "Keep it",
    });
    expect(answer.code).toBe(0);
    expect(viewOf(statePath, sidecar)).toMatchObject({ state: { max_iterations: 2 }, runtime: { pause: null } });
    expect(stop(root).stdout).toMatch(/max_iterations/);
    expect(existsSync(statePath)).toBe(false);
    expect(existsSync(sidecar)).toBe(false);
  });

  it("/loop-start, /loop-pause, /loop-resume and /loop-stop from the helper", () => {
    const { root, statePath } = makeProject();
    const sidecar = statePath.replace(/\.local\.md$/, ".runtime.json");
    const env = { CLAUDE_CODE_SESSION_ID: "s9" };
    expect(runCli(["start", "--max-iterations", "7", "Tidy", "the", "docs"], { cwd: root, env }).code).toBe(0);
    expect(viewOf(statePath, sidecar)?.state).toMatchObject({ max_iterations: 7, session_id: "s9", active: true });
    expect(runCli(["pause"], { cwd: root, env }).code).toBe(0);
    expect(viewOf(statePath, sidecar)?.state.active).toBe(false);
    expect(runCli(["resume"], { cwd: root, env }).code).toBe(0);
    expect(viewOf(statePath, sidecar)?.state.active).toBe(true);
    expect(runCli(["stop"], { cwd: root, env }).code).toBe(0);
    expect(readdirSync(join(root, ".claude"))).toEqual(["continuation-loop.history.jsonl"]);
  });

  it("the /clear handover of a fresh_context loop: the new session's, checklist counted", () => {
    const { root, statePath, sidecar } = project();
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
    expect(readFileSync(statePath, "utf8")).toContain('session_id: "new"');
    expect(viewOf(statePath, sidecar)).toMatchObject({ state: { session_id: "new" }, checklist: "1/3" });
  });
});

describe("continuation-loop view", () => {
  it("prints the sidecar the hooks would save for the files as they are, a hand edit included, and writes nothing", () => {
    const { root, statePath, sidecar } = project();
    expect(stop(root).code).toBe(2);
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("max_iterations: 3", "max_iterations: 40"));
    checkBox(root);
    const saved = readFileSync(sidecar, "utf8");
    const run = runCli(["view", "--name", "default"], { cwd: root });
    expect(run.code).toBe(0);
    const read = readSidecarView(run.stdout);
    expect(read?.digest).toBe(digestOf(readFileSync(statePath, "utf8")));
    expect(read?.view).toMatchObject({ state: { max_iterations: 40, iteration_count: 2 }, checklist: "2/3" });
    expect(read?.view.runtime.output_tokens).toBeTypeOf("number");
    expect(readFileSync(sidecar, "utf8")).toBe(saved);
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
