// A turn that ran a subagent (docs/REFERENCE.md "Subagents"), through the bundled hooks. The Stop hook reads a
// transcript where a version wrote the subagent's lines (`isSidechain: true`) into the main file: they are neither
// Claude's reply nor the loop's output tokens (the 2.1.197 and 2.1.332 layout, a file of its own, is run in
// test/e2e/subagents.e2e.test.ts). A subagent's API error (StopFailure with its `agent_id`) is not the loop's.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, readHistory, runHook } from "../support/runHook.js";
import { assistant, jsonl, user } from "../support/transcriptLines.js";

const sidechain = (line: object) => ({ ...line, isSidechain: true });

describe("a turn that ran a subagent, its lines in the main transcript", () => {
  it.each([
    ["read from the transcript", {}],
    ["handed in the input", { last_assistant_message: "Two tests still fail." }],
  ])("continues on Claude's own reply (%s), counting the main thread's tokens only", (_name, input) => {
    const { root, historyPath } = makeProject(
      '---\nmax_iterations: 10\nmax_tokens: 1000\ncompletion_promise: "DONE"\n---\nFix the tests.\n',
    );
    const transcript = join(root, "t.jsonl");
    writeFileSync(
      transcript,
      jsonl(
        user("Fix the tests."),
        assistant("m1", "Handing the test run to a subagent.", 40),
        sidechain(user("Run the tests; say DONE when they pass.")),
        sidechain(assistant("s1", "DONE. <loop-pause>Fix the lint too?</loop-pause>", 5000)),
        user([{ type: "tool_result", tool_use_id: "t1", content: "DONE." }]),
        assistant("m2", "Two tests still fail.", 60),
      ),
    );
    const run = runHook("stop", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "Stop",
      transcript_path: transcript,
      ...input,
    });
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toContain("iteration 2/10");
    expect(readHistory(historyPath).at(-1)).toMatchObject({
      decision: "continue",
      output_tokens: 100,
      reply_line: "Two tests still fail.",
    });
  });
});

describe("a subagent's API error", () => {
  it.each([
    ["command hooks", {}],
    ["the module's word that it goes on", { CONTINUATION_LOOP_RESUME: "1" }],
  ])("is not the loop's (%s): no api_error line, no wait, no pause", (_name, env) => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\nmax_api_failures: 1\n---\nGoal\n");
    const stop = runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "x" });
    expect(stop.code).toBe(2);
    const sidecarPath = join(root, ".claude", "continuation-loop.runtime.json");
    const before = { state: readFileSync(statePath, "utf8"), sidecar: readFileSync(sidecarPath, "utf8") };
    const input = { session_id: "s1", cwd: root, hook_event_name: "StopFailure", error: "rate_limit" };
    const failed = runHook("session", { ...input, agent_id: "a1", agent_type: "general-purpose" }, { env });
    expect(failed).toMatchObject({ code: 0, stdout: "" });
    expect(readFileSync(statePath, "utf8")).toBe(before.state);
    expect(readFileSync(sidecarPath, "utf8")).toBe(before.sidecar);
    expect(readHistory(historyPath).map((r) => r.decision)).toEqual(["continue"]);
    // The main thread's own error still is.
    expect(runHook("session", input, { env }).code).toBe(0);
    expect(readHistory(historyPath).map((r) => r.decision)).toContain("api_error");
  });
});
