// `until`, `verify` and `metric` commands that leave a process behind, through the bundled Stop hook
// (docs/REFERENCE.md "How a loop ends", "Commands that leave a process running"): the command ends when its shell exits, so a
// background process holding its output does not make the Stop wait for the timeout; at the timeout or the
// output cap, every process the command started is ended with it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CRASH_SIGNS } from "../support/processes.js";
import { killPid } from "../support/pids.js";
import { makeProject, readHistory, runHook } from "../support/runHook.js";

const stop = (root: string, reply = "Still working.") =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });

/** A pid that exists and has not exited: a zombie not yet reaped by its new parent has ended. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/PID/stat: "pid (comm) S …", the state after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc: kill's answer stands
  }
}

/** Waits for the pid to end, polling, at most `boundMs`; true when it ended. */
async function waitForEnd(pid: number, boundMs = 15_000): Promise<boolean> {
  for (const until = Date.now() + boundMs; Date.now() < until; ) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isRunning(pid);
}

/** The pid the command wrote to pid.txt (`echo $! > pid.txt`). */
const readPid = (root: string) => Number(readFileSync(join(root, "pid.txt"), "utf8").trim());

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) killPid(pid);
});

/** Backgrounds a long sleep that keeps the command's stdout and stderr open, and records its pid. */
const LEFTOVER = "sleep 300 & echo $! > pid.txt;";

describe("a command that leaves a process running", () => {
  it("until: its shell's exit is its end; the Stop answers and the leftover is left running", () => {
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 10\nuntil: "${LEFTOVER} true"\nverify_timeout: 10m\n---\nFix.\n`,
    );
    // runHook gives up after 30 s: an answer at all is before the 10-minute limit.
    const run = stop(root);
    const pid = readPid(root);
    started.push(pid);
    expect(run.code).toBe(0);
    expect(readHistory(historyPath).at(-1)).toMatchObject({ decision: "end", reason: "completed" });
    // Not waited for, and not ended: it was still running when the Stop answered.
    expect(isRunning(pid)).toBe(true);
    expect(run.stdout + run.stderr).not.toMatch(CRASH_SIGNS);
  });

  it("until: a failure is told with the output the shell wrote before it exited", () => {
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 10\nuntil: "${LEFTOVER} echo 'FAIL: 1 test failed'; exit 4"\nverify_timeout: 10m\n---\nFix.\n`,
    );
    const run = stop(root);
    started.push(readPid(root));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("exited with status 4, so the goal is not met yet. Last output:\nFAIL: 1 test failed");
    expect(readHistory(historyPath).at(-1)).toMatchObject({
      decision: "continue",
      until_failure: expect.stringMatching(/exited with status 4$/),
    });
  });

  it("verify: the promise is confirmed when the shell exits 0", () => {
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 10\ncompletion_promise: DONE\nverify: "${LEFTOVER} true"\nverify_timeout: 10m\n---\nFix.\n`,
    );
    const run = stop(root, "DONE");
    started.push(readPid(root));
    expect(run.code).toBe(0);
    expect(readHistory(historyPath).at(-1)).toMatchObject({ decision: "end", reason: "completed" });
  });

  it("metric: the last number the shell printed, after more output than a pipe holds", () => {
    // 300 KB before the figure: the shell blocks on the pipe until it is read, then prints the figure and exits.
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 10\nmetric: "${LEFTOVER} yes | head -c 300000; echo 7"\nmetric_timeout: 10m\n---\nGo.\n`,
    );
    const run = stop(root);
    started.push(readPid(root));
    expect(run.code).toBe(2);
    expect(readHistory(historyPath).at(-1)).toMatchObject({ decision: "continue", metric: 7 });
  });

  it("a leftover that writes to the closed output after the command's end gets SIGPIPE", async () => {
    const { root } = makeProject(
      `---\nmax_iterations: 10\nuntil: "(sleep 1; echo late; touch wrote.txt) & echo $! > pid.txt; true"\n---\nFix.\n`,
    );
    expect(stop(root).code).toBe(0);
    const pid = readPid(root);
    started.push(pid);
    expect(await waitForEnd(pid)).toBe(true);
    expect(existsSync(join(root, "wrote.txt"))).toBe(false);
  });
});

describe("a command stopped at its limit", () => {
  it("at the timeout, every process it started is ended with its shell", async () => {
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 10\nuntil: "${LEFTOVER} sleep 300"\nverify_timeout: 1s\n---\nFix.\n`,
    );
    const run = stop(root);
    const pid = readPid(root);
    started.push(pid);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("timed out after 1s");
    expect(readHistory(historyPath).at(-1)).toMatchObject({
      until_failure: expect.stringMatching(/timed out after 1s$/),
    });
    expect(await waitForEnd(pid)).toBe(true);
  });

  it("a process that ignores SIGTERM gets SIGKILL after the grace", async () => {
    // An ignored signal stays ignored across exec: the sleep ignores SIGTERM too.
    const { root } = makeProject(
      `---\nmax_iterations: 10\nverify: "sh ./verify.sh"\ncompletion_promise: DONE\nverify_timeout: 1s\n---\nFix.\n`,
    );
    writeFileSync(join(root, "verify.sh"), `sh -c 'trap "" TERM; sleep 300' &\necho $! > pid.txt\nwait\n`);
    const run = stop(root, "DONE");
    const pid = readPid(root);
    started.push(pid);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("timed out after 1s");
    expect(await waitForEnd(pid)).toBe(true);
  });

  it("past the output cap, the process printing is ended and the metric has no value", async () => {
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 10\nmetric: "yes & echo $! > pid.txt; wait"\nmetric_timeout: 10m\n---\nGo.\n`,
    );
    const run = stop(root);
    const pid = readPid(root);
    started.push(pid);
    expect(run.code).toBe(2);
    expect(readHistory(historyPath).at(-1)).toMatchObject({
      metric: null,
      metric_error: expect.stringMatching(/printed more than 4 MiB/),
    });
    expect(await waitForEnd(pid)).toBe(true);
  });
});
