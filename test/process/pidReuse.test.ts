// A recorded process whose pid the system has given to a new process (pids wrap at /proc/sys/kernel/pid_max, 32768
// on many machines: a loop left overnight beside a build sees it): the sidecar records when each process started
// (src/core/processRef.ts), so the new process is not taken for the one that ended.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { killPid } from "../support/pids.js";
import { makeProject, runHook } from "../support/runHook.js";
import { runCli } from "./support/cli.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** When process `pid` started, in clock ticks since boot: field 22 of `/proc/<pid>/stat`, counted after the ")". */
const startOf = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] as string;
};

/** A process that runs until the test ends it: a stand-in for a Claude Code or a `run`. */
async function startProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn("sleep", ["300"], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve, reject) => child.once("spawn", resolve).once("error", reject));
  return child as ChildProcess & { pid: number };
}

/** Ends `child` and resolves once its parent (this test) has reaped it, so that its pid is free. */
const endProcess = (child: ChildProcess & { pid: number }) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    killPid(child.pid);
  });

/**
 * A process that has pid `pid` and started after the process that had it, which has ended: Linux gives the pid after
 * `/proc/sys/kernel/ns_last_pid` next (root may write it). Another process of the run may take the pid first and hold
 * it for a while, and one started in the same clock tick would share its start, so it tries again until both hold.
 */
async function takePid(pid: number, endedStart: string): Promise<ChildProcess & { pid: number }> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    writeFileSync("/proc/sys/kernel/ns_last_pid", String(pid - 1));
    const child = await startProcess();
    if (child.pid === pid && startOf(pid) !== endedStart) return child;
    await endProcess(child);
    if (existsSync(`/proc/${pid}`)) await sleep(10);
  }
  throw new Error(`pid ${pid} stayed with another process for a minute`);
}

/**
 * The record of a process that has ended, and the live process that has its pid now. As root the pid is given again
 * for real (`takePid`); elsewhere the live process stands beside a record of its pid with an earlier start, which is
 * what the sidecar holds once the pid is given again.
 */
async function recordTakenOver(ended: ChildProcess & { pid: number }): Promise<ChildProcess & { pid: number }> {
  const endedStart = startOf(ended.pid);
  await endProcess(ended);
  if (process.getuid?.() === 0) return takePid(ended.pid, endedStart);
  const holder = await startProcess();
  return holder;
}

const sidecarPath = (root: string) => join(root, ".claude", "continuation-loop.runtime.json");
const readRecorded = (root: string, field: string) =>
  (JSON.parse(readFileSync(sidecarPath(root), "utf8")) as Record<string, unknown>)[field];

const stopAs = (root: string, claudePid: number) =>
  runHook(
    "stop",
    { session_id: "s", cwd: root, hook_event_name: "Stop", last_assistant_message: "work" },
    { env: { CLAUDE_PID: String(claudePid) } },
  );

describe("a recorded process whose pid a new process has now", () => {
  it("the session resumed after its Claude Code ended goes on with the loop, though a new process has that pid", async () => {
    const { root } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    const [first, second] = [await startProcess(), await startProcess()];
    expect(stopAs(root, first.pid).code).toBe(2);
    const recorded = { ref: readRecorded(root, "owner_pid"), start: startOf(first.pid) };
    // While the first Claude Code runs, the second (the same session resumed elsewhere) leaves the loop alone.
    const elsewhere = stopAs(root, second.pid);
    expect(elsewhere.code).toBe(0);
    expect(String(elsewhere.json?.systemMessage)).toContain(`another Claude Code process (pid ${first.pid})`);

    const holder = await recordTakenOver(first);
    if (process.getuid?.() !== 0)
      writeFileSync(
        sidecarPath(root),
        JSON.stringify({
          ...JSON.parse(readFileSync(sidecarPath(root), "utf8")),
          owner_pid: `${holder.pid}@${Number(startOf(holder.pid)) - 1}`,
        }),
      );
    const resumed = stopAs(root, second.pid);
    expect(resumed.code, resumed.stdout).toBe(2);
    expect(resumed.stderr).toContain("iteration 3/10");
    // Each Stop records its Claude Code with the time it started.
    expect(recorded.ref).toBe(`${first.pid}@${recorded.start}`);
    expect(readRecorded(root, "owner_pid")).toBe(`${second.pid}@${startOf(second.pid)}`);
  });

  it("`continuation-loop resume` takes the loop of a run that has ended, though a new process has that run's pid", async () => {
    const { root, statePath } = makeProject('---\nmax_iterations: 10\nsession_id: "s"\nactive: false\n---\nGoal\n');
    const run = await startProcess();
    const runRef = `${run.pid}@${startOf(run.pid)}`;
    const loop = { loop: { started_at: null, session_id: "s" }, run_pid: runRef };
    writeFileSync(sidecarPath(root), JSON.stringify(loop));
    const driven = runCli(["resume"], { cwd: root });
    expect(driven.code, driven.stderr).toBe(1);
    expect(driven.stderr).toContain(`driven by continuation-loop run (pid ${run.pid}), which still runs`);

    const holder = await recordTakenOver(run);
    if (process.getuid?.() !== 0)
      writeFileSync(
        sidecarPath(root),
        JSON.stringify({ ...loop, run_pid: `${holder.pid}@${Number(startOf(holder.pid)) - 1}` }),
      );
    const resumed = runCli(["resume"], { cwd: root });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(statePath, "utf8")).toContain("active: true");
  });

  it("a sidecar written before starts were kept (a bare pid) is read as before", () => {
    const { root } = makeProject('---\nmax_iterations: 10\nsession_id: "s"\n---\nGoal\n');
    const loop = { loop: { started_at: null, session_id: "s" } };
    writeFileSync(sidecarPath(root), JSON.stringify({ ...loop, owner_pid: String(process.pid) }));
    // Another live process: the owner runs elsewhere.
    expect(String(stopAs(root, process.ppid).json?.systemMessage)).toContain(
      `another Claude Code process (pid ${process.pid})`,
    );
    // The owner's own Claude Code: its Stop goes on.
    expect(stopAs(root, process.pid).code).toBe(2);
  });
});
