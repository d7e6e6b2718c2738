// Claude asks the user with <loop-pause>: the loop waits, the next prompt a person sends resumes it
// (docs/REFERENCE.md "Pausing"). Bundled hooks fed JSON on stdin.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeProject, readHistory as history, runHook } from "../support/runHook.js";

const stop = (root: string, reply: string) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const prompt = (root: string, text: string, extra: Record<string, unknown> = {}) =>
  runHook("prompt", { session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: text, ...extra });

describe("<loop-pause>", () => {
  it("pauses with the question in one line and a bell; waits; the next prompt resumes the loop", () => {
    const { root, statePath, historyPath } = makeProject(
      '---\nmax_iterations: 10\ncompletion_promise: "DONE"\n---\nGoal\n',
    );
    expect(stop(root, "Started.").code).toBe(2);
    const asked = stop(root, "Two ways to go. <loop-pause>Keep the old API or break it?</loop-pause>");
    expect(asked.code).toBe(0);
    const message = String(asked.json?.systemMessage);
    expect(message).toContain("Claude asks: Keep the old API or break it?");
    expect(message.split("\n")).toHaveLength(1);
    expect(asked.json?.terminalSequence).toBe("\u0007");
    // The iteration is not counted, the user's file keeps its goal and is not paused by hand.
    const text = readFileSync(statePath, "utf8");
    expect(text).toMatch(/^iteration_count: 2$/m);
    expect(text).not.toMatch(/^active: false$/m);
    expect(history(historyPath).at(-1)).toMatchObject({
      decision: "pause",
      reason: "question",
      question: "Keep the old API or break it?",
    });
    // While it waits, a Stop does nothing, and a wake-up prompt does not answer.
    expect(stop(root, "idle")).toMatchObject({ code: 0, stdout: "" });
    expect(prompt(root, "tick", { source: "loop_wakeup", transcript_path: "/nonexistent" }).stdout).toBe("");
    const status = prompt(root, "/loop-status");
    expect(String(status.json?.reason)).toContain("question: Keep the old API or break it?");
    // The user's answer resumes it: Claude is told, and the next Stop continues the loop.
    const answer = prompt(root, "Keep it.");
    expect(String(answer.json?.systemMessage)).toContain("the loop goes on");
    const context = String((answer.json?.hookSpecificOutput as Record<string, unknown>)?.additionalContext);
    expect(context).toContain("answers your question");
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "resume", reason: "answered" });
    const next = stop(root, "Kept the API.");
    expect(next.code).toBe(2);
    expect(next.stderr).toContain("iteration 3/10");
  });

  it("the full prompt tells Claude how to pause, and that it is for real blockers only", () => {
    const { root } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    expect(stop(root, "Started.").stderr).toMatch(/<loop-pause>your question<\/loop-pause>.*real blockers/);
  });
});
