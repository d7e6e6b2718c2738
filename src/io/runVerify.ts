import { loadChildProcess } from "./loadChildProcess.js";
import type { VerifyResult } from "../core/decideStop.js";
import type { Env } from "../core/loopFiles.js";

export const MAX_OUTPUT = 4 * 1024 * 1024;
const TAIL_LINES = 30;
const TAIL_CHARS = 3000;

/** The last lines of a command's output, short enough for a prompt. */
export function tailOf(output: string): string {
  const tail = output.trimEnd().split(/\r?\n/).slice(-TAIL_LINES).join("\n");
  return tail.length > TAIL_CHARS ? `…${tail.slice(-TAIL_CHARS)}` : tail || "(no output)";
}

export interface CommandRun {
  exitCode: number | null;
  timedOut: boolean;
  /** More than the output cap: the command was stopped there. */
  overflowed: boolean;
  stdout: string;
  /** stdout, stderr and a spawn error's message, uncapped (tailOf caps it). */
  output: string;
}

/**
 * Runs a user's command (`verify`, `metric`) through the platform shell in the project root, with a
 * time limit and an output cap: a command that hangs or prints without end is stopped, never waited for.
 */
export function runCommand(command: string, cwd: string, timeoutS: number, env: Env): CommandRun {
  const result = loadChildProcess().spawnSync(command, {
    cwd,
    env: env as NodeJS.ProcessEnv,
    shell: true,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: Math.round(timeoutS * 1000),
    maxBuffer: MAX_OUTPUT,
    encoding: "utf8",
    windowsHide: true,
  });
  const code = (result.error as NodeJS.ErrnoException | undefined)?.code;
  const timedOut = code === "ETIMEDOUT";
  const overflowed = code === "ENOBUFS";
  const stdout = result.stdout ?? "";
  const output = `${stdout}${result.stderr ?? ""}${result.error && !timedOut ? `\n${result.error.message}` : ""}`;
  return { exitCode: timedOut ? null : result.status, timedOut, overflowed, stdout, output };
}

/** Runs the verify command: exit 0 confirms completion. */
export function runVerify(command: string, cwd: string, timeoutS: number, env: Env): VerifyResult {
  const run = runCommand(command, cwd, timeoutS, env);
  return { command, exitCode: run.exitCode, timedOut: run.timedOut, outputTail: tailOf(run.output) };
}
