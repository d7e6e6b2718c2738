import { spawnSync } from "node:child_process";
import type { VerifyResult } from "../core/decideStop.js";
import type { Env } from "../core/loopFiles.js";

const MAX_OUTPUT = 4 * 1024 * 1024;
const TAIL_LINES = 30;
const TAIL_CHARS = 3000;

/** The last lines of a command's output, short enough for a prompt. */
export function tailOf(output: string): string {
  const tail = output.trimEnd().split(/\r?\n/).slice(-TAIL_LINES).join("\n");
  return tail.length > TAIL_CHARS ? `…${tail.slice(-TAIL_CHARS)}` : tail || "(no output)";
}

/** Runs the verify command through the platform shell in the project root. */
export function runVerify(command: string, cwd: string, timeoutS: number, env: Env): VerifyResult {
  const result = spawnSync(command, {
    cwd,
    env: env as NodeJS.ProcessEnv,
    shell: true,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: Math.round(timeoutS * 1000),
    maxBuffer: MAX_OUTPUT,
    encoding: "utf8",
    windowsHide: true,
  });
  const timedOut = (result.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error && !timedOut ? `\n${result.error.message}` : ""}`;
  return { command, exitCode: timedOut ? null : result.status, timedOut, outputTail: tailOf(output) };
}
