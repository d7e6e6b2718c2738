import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CommandJob, CommandMessage } from "./commandWorker.js";
import { loadWorkerThreads } from "./loadChildProcess.js";
import type { CommandEnd, VerifyResult } from "../core/decideStop.js";
import type { Env } from "../core/loopFiles.js";
import { readPlainTail } from "../core/plainText.js";

export const MAX_OUTPUT = 4 * 1024 * 1024;
const TAIL_LINES = 30;
const TAIL_CHARS = 3000;

/** The last lines of a command's output as a terminal shows them (colour dropped), short enough for a prompt. */
export function tailOf(output: string): string {
  const tail = readPlainTail(output, TAIL_LINES).join("\n");
  return tail.length > TAIL_CHARS ? `…${tail.slice(-TAIL_CHARS)}` : tail || "(no output)";
}

export interface CommandRun {
  exitCode: number | null;
  timedOut: boolean;
  /** More than the output cap: the command was stopped there. */
  overflowed: boolean;
  /** The signal that ended it, or the reason it never started (undefined: it exited, or timed out). */
  ended?: CommandEnd;
  stdout: string;
  /** stdout, stderr and a spawn error's message, uncapped (tailOf caps it). */
  output: string;
}

/** After SIGTERM at the timeout or the output cap, how long the command's processes have before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** Past the timeout and the grace, how long a worker that never answered is waited for. */
const WORKER_SPARE_MS = 5000;

/**
 * Runs a user's command (`until`, `verify`, `metric`) through the platform shell in the project root, with a
 * time limit and an output cap: a command that hangs or prints without end is stopped, never waited for,
 * and so is every process it started (src/io/commandWorker.ts). Synchronous, as the Stop is: a worker thread
 * (hooks/active/command.js under `packageRoot`) runs the command while this thread waits for its answer.
 */
export function runCommand(command: string, cwd: string, timeoutS: number, env: Env, packageRoot: string): CommandRun {
  const runner = join(packageRoot, "hooks", "active", "command.js");
  // A copy of the plugin without it is said at once, not after the command's whole limit.
  if (!existsSync(runner)) {
    const output = `the command did not run: ${runner} is missing (install continuation-loop again)`;
    return { exitCode: null, timedOut: false, overflowed: false, stdout: "", output };
  }
  const threads = loadWorkerThreads();
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new threads.MessageChannel();
  const timeoutMs = Math.round(timeoutS * 1000);
  const job: CommandJob = {
    command,
    cwd,
    env,
    timeoutMs,
    graceMs: KILL_GRACE_MS,
    maxOutput: MAX_OUTPUT,
    done,
    port: port2,
  };
  // The worker's output must never reach the hook's stdout: it is kept in the worker.
  const worker = new threads.Worker(runner, {
    workerData: job,
    transferList: [port2],
    stdout: true,
    stderr: true,
  });
  worker.on("error", () => undefined);
  worker.unref();
  Atomics.wait(done, 0, 0, timeoutMs + KILL_GRACE_MS + WORKER_SPARE_MS);
  let pid: number | undefined;
  let answer: Exclude<CommandMessage, { pid: number }> | undefined;
  for (let message = threads.receiveMessageOnPort(port1); message; message = threads.receiveMessageOnPort(port1)) {
    const body = message.message as CommandMessage;
    if ("pid" in body) pid = body.pid;
    else answer = body;
  }
  port1.close();
  void worker.terminate();
  if (!answer) {
    // The worker never answered: the command gets no more time than its limit.
    if (pid !== undefined) killGroup(pid);
    return { exitCode: null, timedOut: true, overflowed: false, stdout: "", output: "" };
  }
  const stopped = answer.overflowed ? `\n(stopped: more than ${MAX_OUTPUT / 1024 / 1024} MiB of output)` : "";
  const failed = answer.error !== undefined && !answer.timedOut ? `\n${answer.error}` : "";
  const ended: CommandEnd | undefined = answer.notStarted
    ? { notStarted: answer.error ?? "no process could be made" }
    : answer.signal
      ? { signal: answer.signal }
      : undefined;
  return {
    exitCode: answer.exitCode,
    timedOut: answer.timedOut,
    overflowed: answer.overflowed,
    ...(ended && { ended }),
    stdout: answer.stdout,
    output: `${answer.stdout}${answer.stderr}${stopped}${failed}`,
  };
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Runs the verify command: exit 0 confirms completion. */
export function runVerify(command: string, cwd: string, timeoutS: number, env: Env, packageRoot: string): VerifyResult {
  const run = runCommand(command, cwd, timeoutS, env, packageRoot);
  return {
    command,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    timeoutS,
    ...(run.ended && { ended: run.ended }),
    outputTail: tailOf(run.output),
  };
}
