// Claude asks the user with <loop-pause>: the loop waits, the next prompt a person sends resumes it
// (docs/REFERENCE.md "Pausing"). Bundled hooks fed JSON on stdin.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, readHistory as history, runHook } from "../support/runHook.js";
import { assistant, jsonl, user } from "../support/transcriptLines.js";

const stop = (root: string, reply: string) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const cli = (root: string, ...args: string[]) =>
  runHook("cli", "", { cwd: root, args, env: { CLAUDE_PROJECT_DIR: root } });
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

  it("an answer after the loop was paused by hand reaches Claude, and the loop stays paused", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    expect(stop(root, "Started.").code).toBe(2);
    expect(stop(root, "<loop-pause>Keep the old API or break it?</loop-pause>").code).toBe(0);
    writeFileSync(
      statePath,
      readFileSync(statePath, "utf8").replace("max_iterations: 10", "active: false\nmax_iterations: 10"),
    );
    const answer = prompt(root, "Keep it; leave the loop paused for now.");
    expect(String(answer.json?.systemMessage)).toContain("the loop stays paused");
    const context = String((answer.json?.hookSpecificOutput as Record<string, unknown>)?.additionalContext);
    expect(context).toContain("do not go back to the loop's goal");
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "pause", reason: "question" });
    expect(stop(root, "Kept it.")).toMatchObject({ code: 0, stdout: "" });
    expect(cli(root, "status").stdout).toContain("loop paused");
  });

  it("the full prompt tells Claude how to pause, and that it is for real blockers only", () => {
    const { root } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    expect(stop(root, "Started.").stderr).toMatch(/<loop-pause>your question<\/loop-pause>.*real blockers/);
  });
});

describe("turns while the loop is paused", () => {
  /** One turn of the transcript: a prompt, then a reply of `tokens` output tokens. */
  const turn = (path: string, id: string, text: string, tokens: number) =>
    appendFileSync(path, jsonl(user("go"), assistant(id, text, tokens)));
  const stopIn = (root: string, transcript: string, reply: string) =>
    runHook("stop", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "Stop",
      transcript_path: transcript,
      last_assistant_message: reply,
    });

  it.each([
    ["/loop-pause, then /loop-resume", "/loop-pause", "/loop-resume"],
    ["active: false, then active: true by hand", "hand", "hand"],
  ])("%s: a long chat meanwhile is not counted against max_tokens", (_name, pause, resume) => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\nmax_tokens: 1000\n---\nGoal\n");
    const transcript = join(root, "t.jsonl");
    writeFileSync(transcript, "");
    turn(transcript, "m1", "working 1", 100);
    expect(stopIn(root, transcript, "working 1").code).toBe(2);
    const edit = (from: string, to: string) =>
      writeFileSync(statePath, readFileSync(statePath, "utf8").replace(from, to));
    if (pause === "hand") edit("max_iterations: 10", "active: false\nmax_iterations: 10");
    else expect(prompt(root, pause, { transcript_path: transcript }).code).toBe(0);
    // Paused: the person asks for a long explanation, twice.
    turn(transcript, "c1", "a long explanation", 3000);
    expect(stopIn(root, transcript, "a long explanation")).toMatchObject({ code: 0, stdout: "" });
    turn(transcript, "c2", "another long one", 3000);
    expect(stopIn(root, transcript, "another long one")).toMatchObject({ code: 0, stdout: "" });
    if (resume === "hand") edit("active: false\n", "");
    else expect(prompt(root, resume, { transcript_path: transcript }).code).toBe(0);
    turn(transcript, "m2", "working 2", 100);
    const next = stopIn(root, transcript, "working 2");
    expect(next.code, next.stdout).toBe(2);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "continue", output_tokens: 200 });
  });

  it("while Claude's question waits, turns of a wake-up are not counted either", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 10\nmax_tokens: 1000\n---\nGoal\n");
    const transcript = join(root, "t.jsonl");
    writeFileSync(transcript, "");
    turn(transcript, "m1", "<loop-pause>Which API?</loop-pause>", 100);
    expect(stopIn(root, transcript, "<loop-pause>Which API?</loop-pause>").code).toBe(0);
    turn(transcript, "w1", "a background task finished", 2000);
    expect(stopIn(root, transcript, "a background task finished")).toMatchObject({ code: 0, stdout: "" });
    expect(prompt(root, "The new one.", { transcript_path: transcript }).code).toBe(0);
    turn(transcript, "m2", "switched to the new API", 100);
    expect(stopIn(root, transcript, "switched to the new API").code).toBe(2);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "continue", output_tokens: 200 });
  });
});

describe("/loop-resume of a loop left paused overnight", () => {
  it("is refused while its max_duration has passed, the loop left paused; raised, it resumes", () => {
    const tenHoursAgo = new Date(Date.now() - 10 * 3_600_000).toISOString();
    const { root, statePath, historyPath } = makeProject(
      `---\nactive: false\nmax_iterations: 10\nmax_duration: 2h\nstarted_at: ${tenHoursAgo}\nsession_id: s1\n---\nGoal\n`,
    );
    const before = readFileSync(statePath, "utf8");
    const refused = prompt(root, "/loop-resume");
    expect(refused.json?.decision).toBe("block");
    expect(String(refused.json?.reason)).toContain("max_duration");
    expect(refused.json?.hookSpecificOutput).toBeUndefined();
    const fromTerminal = cli(root, "resume");
    expect(fromTerminal.code).toBe(1);
    expect(fromTerminal.stderr).toContain("max_duration");
    expect(readFileSync(statePath, "utf8")).toBe(before);
    expect(existsSync(historyPath)).toBe(false);
    writeFileSync(statePath, before.replace("max_duration: 2h", "max_duration: 12h"));
    expect(String(prompt(root, "/loop-resume").json?.systemMessage)).toContain("loop resumed");
  });
});
