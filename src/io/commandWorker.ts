import { type ChildProcess, spawn } from "node:child_process";
import { type MessagePort, workerData } from "node:worker_threads";
import { readMonotonicMs } from "./monotonic.js";

/** What runCommand hands the worker (its workerData). */
export interface CommandJob {
  command: string;
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  /** After SIGTERM, how long the command's processes have before SIGKILL. */
  graceMs: number;
  /** Bytes kept of stdout, and of stderr: past it the command is stopped. */
  maxOutput: number;
  /** Set to 1 when the answer is on `port`. */
  done: Int32Array;
  port: MessagePort;
}

/** The worker's messages: the command's pid as soon as it runs, then the answer. */
export type CommandMessage =
  | { pid: number }
  | {
      exitCode: number | null;
      timedOut: boolean;
      overflowed: boolean;
      stdout: string;
      stderr: string;
      error?: string;
      /** The signal that ended the command's shell, when one did (the out-of-memory killer's SIGKILL). */
      signal?: string;
      /** The command never started: no process could be made (too many processes, no memory). */
      notStarted?: boolean;
    };

/**
 * The worker's body (its bundle is hooks/active/command.js, src/entries/active/command.ts; src/io/runVerify.ts starts
 * it). The command ends when its shell exits, not when its output pipes close: a process it left running in the
 * background may hold them open for good. What the shell wrote before it exited is read first (it is in the
 * pipes then: one turn of the event loop takes it), then the pipes are closed. On the timeout or the output
 * cap the command's whole process group (it leads its own) gets SIGTERM, and SIGKILL after the grace.
 */
export function superviseCommand(job: CommandJob = workerData as CommandJob): void {
  const chunks: { stdout: Buffer[]; stderr: Buffer[] } = { stdout: [], stderr: [] };
  const sizes = { stdout: 0, stderr: 0 };
  let timedOut = false;
  let overflowed = false;
  let answered = false;
  let exitCode: number | null = null;
  let signal: string | null = null;
  let error: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let child: ChildProcess | undefined;

  const answer = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    child?.stdout?.destroy();
    child?.stderr?.destroy();
    const text = (name: "stdout" | "stderr") => Buffer.concat(chunks[name]).toString("utf8");
    job.port.postMessage({
      exitCode: timedOut || overflowed ? null : exitCode,
      timedOut,
      overflowed,
      stdout: text("stdout"),
      stderr: text("stderr"),
      ...(error !== undefined && { error }),
      ...(signal !== null && !timedOut && !overflowed && { signal }),
      ...(child?.pid === undefined && { notStarted: true }),
    });
    Atomics.store(job.done, 0, 1);
    Atomics.notify(job.done, 0);
  };
  const signalGroup = (pid: number, signal: NodeJS.Signals | 0) => {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false; // no process left in the group
    }
  };
  const endGroup = () => {
    clearTimeout(timer);
    const pid = child?.pid;
    if (pid === undefined || !signalGroup(pid, "SIGTERM")) return answer();
    const killAt = readMonotonicMs() + job.graceMs;
    const check = () => {
      if (!signalGroup(pid, 0)) return answer();
      if (readMonotonicMs() < killAt) return void setTimeout(check, 25);
      signalGroup(pid, "SIGKILL");
      answer();
    };
    check();
  };
  const keep = (name: "stdout" | "stderr") => (chunk: Buffer) => {
    if (timedOut || overflowed) return;
    const room = job.maxOutput - sizes[name];
    sizes[name] += chunk.length;
    chunks[name].push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    if (chunk.length <= room) return;
    overflowed = true;
    endGroup();
  };

  try {
    child = spawn(job.command, {
      cwd: job.cwd,
      env: job.env as NodeJS.ProcessEnv,
      shell: true,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      windowsHide: true,
    });
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown);
    answer();
    return;
  }
  if (child.pid !== undefined) job.port.postMessage({ pid: child.pid });
  child.stdout?.on("data", keep("stdout"));
  child.stderr?.on("data", keep("stderr"));
  child.on("error", (thrown) => {
    error = thrown.message;
    if (timedOut || overflowed) return;
    answer();
  });
  child.on("exit", (code, ended) => {
    exitCode = code;
    signal = ended;
    if (timedOut || overflowed) return;
    clearTimeout(timer);
    setImmediate(answer);
  });
  timer = setTimeout(() => {
    timedOut = true;
    endGroup();
  }, job.timeoutMs);
}
