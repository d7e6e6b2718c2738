// `until` through the bundled hooks (README "Until"): the command runs at every Stop of the loop, exit 0
// completes it, a failure sends Claude the command, its status and its output's tail (and the history
// keeps it), and a state file tracked by git never runs it. Also the default end of /loop-start.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CRASH_SIGNS } from "../support/processes.js";
import { makeProject, readHistory as history, runHook } from "../support/runHook.js";

const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
const stop = (root: string, reply = "Still working.") =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const prompt = (root: string, text: string) =>
  runHook(
    "prompt",
    { session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: text },
    { env: { CLAUDE_PROJECT_DIR: root } },
  );
/** Passes once pass.txt exists; counts its runs in runs.txt; prints a failure line otherwise. */
const UNTIL = `until: "echo run >> runs.txt; test -f pass.txt || { echo 'FAIL: 2 tests failed'; exit 3; }"`;

describe("until", () => {
  it("runs at every stop; a failure sends the command, status and output; exit 0 completes without a promise", () => {
    const { root, statePath, historyPath } = makeProject(`---\nmax_iterations: 10\n${UNTIL}\n---\nFix the tests.\n`);
    const first = stop(root);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain(
      "exited with status 3, so the goal is not met yet. Last output:\nFAIL: 2 tests failed",
    );
    expect(first.stderr).toContain("echo run >> runs.txt");
    expect(first.stderr).toContain("Goal:\nFix the tests.");
    // The same failure again is no news: the short reminder says so, without the goal or the output.
    const second = stop(root, "Another try.");
    expect(second.code).toBe(2);
    expect(second.stderr).not.toContain("Goal:");
    expect(second.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(second.stderr).toMatch(
      /exited with status 3 again, with the same output as last time\. It completes when it exits 0\.\n$/,
    );
    expect(readFileSync(join(root, "runs.txt"), "utf8")).toBe("run\nrun\n");
    expect(history(historyPath).at(-1)).toMatchObject({
      decision: "continue",
      until_failure: expect.stringMatching(/exited with status 3$/),
    });

    writeFileSync(join(root, "pass.txt"), "");
    const done = stop(root, "I think it works now.");
    expect(done.code).toBe(0);
    expect(String(done.json?.systemMessage)).toMatch(/completed \(`.*` exited 0\) after 3\/10 iterations/);
    expect(existsSync(statePath)).toBe(false);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "end", reason: "completed", iteration: 3 });
    expect(first.stderr + done.stderr).not.toMatch(CRASH_SIGNS);
  });

  it("an output that changes is sent again, its last lines only; timings alone are no change; news brings the full prompt back", () => {
    const { root, statePath } = makeProject(`---\nmax_iterations: 10\nuntil: "sh ./check.sh"\n---\nFix the tests.\n`);
    // 30 failing lines, the round number in the last one, and a duration that changes at every run.
    const check = (round: string) =>
      writeFileSync(
        join(root, "check.sh"),
        `for i in $(seq 1 29); do echo "FAIL test/t$i.test.ts > case $i"; done\necho "Tests ${round} · Duration $(date +%N | cut -c1-3)ms at $(date +%H:%M:%S)"\nexit 1\n`,
      );
    check("29 failed");
    const first = stop(root);
    expect(first.stderr).toContain("Goal:\nFix the tests.");
    expect(first.stderr).toContain("FAIL test/t1.test.ts > case 1\n"); // the first failure in full
    const same = stop(root, "Tried again.");
    expect(same.stderr).toContain("with the same output as last time");
    expect(same.stderr.split("\n").filter(Boolean)).toHaveLength(1);

    check("28 failed");
    const changed = stop(root, "Fixed one.");
    expect(changed.stderr).not.toContain("Goal:");
    const lines = changed.stderr.trimEnd().split("\n");
    // The reminder line, then the last six lines of the output.
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatch(
      /^\[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE\] iteration 4\/10 .*`sh \.\/check\.sh` exited with status 1\. It completes when it exits 0\. The end of its output \(run it for the rest\):$/,
    );
    expect(lines[1]).toBe("FAIL test/t25.test.ts > case 25");
    expect(lines[6]).toMatch(/^Tests 28 failed · Duration/);
    expect(stop(root, "Looked again.").stderr).toContain("with the same output as last time");

    // News (an edited goal) brings the full prompt back, with the whole output.
    writeFileSync(
      statePath,
      readFileSync(statePath, "utf8").replace("Fix the tests.", "Fix the tests, one file at a time."),
    );
    const edited = stop(root, "Reading the new goal.");
    expect(edited.stderr).toContain("Goal:\nFix the tests, one file at a time.");
    expect(edited.stderr).toContain("FAIL test/t1.test.ts > case 1\n");
    expect(stop(root, "Again.").stderr).toContain("with the same output as last time");
  });

  it("a loop with a promise keeps its phrase in the reminder beside the command's status", () => {
    const { root } = makeProject(`---\nmax_iterations: 10\ncompletion_promise: DONE\n${UNTIL}\n---\nFix.\n`);
    stop(root);
    const again = stop(root, "Working.");
    expect(again.stderr).toMatch(
      /exited with status 3 again, with the same output as last time\. Say "DONE" only when it is true\.\n$/,
    );
  });

  it("refuses the promise while it fails, and verify still gates it when it passes", () => {
    const { root } = makeProject(
      `---\nmax_iterations: 10\ncompletion_promise: DONE\n${UNTIL}\nverify: "test -f verified.txt"\n---\nFix.\n`,
    );
    const refused = stop(root, "DONE");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("Your last completion was not accepted: the until command");
    writeFileSync(join(root, "pass.txt"), "");
    const gated = stop(root, "Working.");
    expect(gated.code).toBe(2);
    expect(gated.stderr).toContain("the verify command `test -f verified.txt` exited with status 1");
    writeFileSync(join(root, "verified.txt"), "");
    expect(stop(root, "Working.").code).toBe(0);
  });

  it("a timeout within verify_timeout is told as one", () => {
    const { root } = makeProject(`---\nmax_iterations: 10\nuntil: "sleep 5"\nverify_timeout: 1\n---\nWait.\n`);
    const run = stop(root);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("`sleep 5` timed out after 1s");
  });

  it("a command whose shell a signal ended (the out-of-memory killer's SIGKILL) is told by its signal, not as an unknown status", () => {
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 10\nuntil: "echo started; kill -9 $$"\nmetric: "echo 5; kill -9 $$"\n---\nFix.\n`,
    );
    const run = stop(root);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("`echo started; kill -9 $$` was ended by signal SIGKILL (out of memory, or killed)");
    expect(run.stderr).not.toContain("status unknown");
    expect(history(historyPath).at(-1)).toMatchObject({
      until_failure: "`echo started; kill -9 $$` was ended by signal SIGKILL (out of memory, or killed)",
      metric_error: expect.stringMatching(/^the metric was ended by signal SIGKILL \(out of memory, or killed\)/),
    });
  });

  it.each([
    ["committed", true],
    ["staged", false],
  ])("never runs for a state file tracked by git (%s)", (_name, commit) => {
    const { root, statePath, historyPath } = makeProject(`---\nmax_iterations: 10\n${UNTIL}\n---\nFix.\n`);
    git(root, "init", "-q");
    git(root, "add", "-f", statePath);
    if (commit) git(root, "commit", "-qm", "state");
    const run = stop(root);
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toContain("until, verify and metric commands never are");
    expect(existsSync(join(root, "runs.txt"))).toBe(false);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "refused", reason: "tracked_by_git" });
  });

  it("never runs for an owned state file staged mid-loop", () => {
    const { root, statePath } = makeProject(`---\nmax_iterations: 10\n${UNTIL}\nsession_id: s1\n---\nFix.\n`);
    git(root, "init", "-q");
    git(root, "add", "-f", statePath);
    const run = stop(root);
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toContain("tracked by git, so its commands are never run");
    expect(String(run.json?.systemMessage)).toContain("until");
    expect(existsSync(join(root, "runs.txt"))).toBe(false);
  });
});

describe("/loop-start's default end", () => {
  it("a loop started with no condition ends when Claude writes <promise>DONE</promise>", () => {
    const { root, statePath, historyPath } = makeProject(undefined);
    const started = prompt(root, "/loop-start Fix the failing tests");
    expect(started.json?.systemMessage).toContain("It ends when Claude writes <promise>DONE</promise>");
    expect(started.json?.systemMessage).toContain('--until "npm test"');
    expect(readFileSync(statePath, "utf8")).toMatch(/^completion_promise: "DONE"\npromise_format: "tag"$/m);
    const context = String((started.json?.hookSpecificOutput as Record<string, unknown>)?.additionalContext);
    expect(context).toContain("end your reply with <promise>DONE</promise>");
    expect(stop(root, "Done, all fixed.").code).toBe(2);
    const end = stop(root, "All fixed.\n<promise>DONE</promise>");
    expect(end.code).toBe(0);
    expect(history(historyPath).at(-1)).toMatchObject({ reason: "completed", iteration: 2, promise: "DONE" });
  });

  it("a hand-written file with no promise keeps its fields: it runs to its limit", () => {
    const { root, historyPath } = makeProject(`---\nmax_iterations: 2\n---\nKeep going.\n`);
    const first = stop(root, "<promise>DONE</promise>");
    expect(first.code).toBe(2);
    expect(first.stderr).toContain("There is no completion phrase");
    expect(stop(root, "<promise>DONE</promise>").code).toBe(0);
    expect(history(historyPath).at(-1)).toMatchObject({ reason: "max_iterations", iteration: 2 });
  });
});
