// Signals to processes a test did not start itself, by a pid read from a file or from /proc.
import { readFileSync } from "node:fs";

/**
 * Sends `signal` to the process `pid`; one gone already is no error. Anything but a positive integer throws:
 * `process.kill(0)` or a negative pid signals a whole process group, and a test's group is the test run's own
 * (vitest, npm, CI's shell), so an empty pid file read as `Number("")` would end the run with SIGKILL.
 */
export function killPid(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  if (!Number.isSafeInteger(pid) || pid <= 0) throw new Error(`not a pid: ${String(pid)}`);
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/**
 * The pid a shell wrote to `path` (`echo $$ > path`) once its line is whole: the shell creates the file before it
 * writes, so a file that exists may still be empty. Polls every 20 ms, at most `boundMs`.
 */
export async function waitForPidFile(path: string, boundMs = 20_000): Promise<number> {
  for (const until = Date.now() + boundMs; ; ) {
    let text = "";
    try {
      text = readFileSync(path, "utf8");
    } catch {
      // not made yet
    }
    if (/^\d+\n$/.test(text)) return Number(text);
    if (Date.now() > until)
      throw new Error(`timed out waiting for a pid in ${path} (it holds ${JSON.stringify(text)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
