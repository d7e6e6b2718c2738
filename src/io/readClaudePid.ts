import { readFileSync } from "node:fs";
import { readMonotonicMs } from "./monotonic.js";
import { sleep } from "./sleep.js";

/** Linux: a process killed whose parent has not yet reaped it (a zombie) still answers signal 0, but is gone. */
function readZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
  } catch {
    return false;
  }
}

/**
 * What signal 0 says of a pid (it checks without sending anything): running (EPERM: as another
 * user), gone (no such process, or a zombie), or nothing to go by (not a pid, or another error).
 */
function probeProcess(pid: number): "running" | "gone" | "unknown" {
  if (!Number.isSafeInteger(pid) || pid <= 0) return "unknown";
  try {
    process.kill(pid, 0);
    return readZombie(pid) ? "gone" : "running";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EPERM" ? "running" : code === "ESRCH" ? "gone" : "unknown";
  }
}

/** Is that process still running? */
export const readProcessRunning = (pid: string): boolean => probeProcess(Number(pid)) === "running";

/**
 * Waits until that process is no longer running, looking every 50 ms (no Node API waits on a process that is not
 * our child); false when it still runs after `timeoutMs`.
 */
export function waitForProcessEnd(pid: string, timeoutMs: number): boolean {
  const deadline = readMonotonicMs() + timeoutMs;
  while (readProcessRunning(pid)) {
    if (readMonotonicMs() >= deadline) return false;
    sleep(50);
  }
  return true;
}

/**
 * Is that process surely gone (SIGKILL, crash)? Then nobody will release its lock or rename its temp
 * files. A pid that is no number is never judged gone; our own runs.
 */
export const readProcessGone = (pid: number): boolean => probeProcess(pid) === "gone";

/** `/proc/<pid>/stat`: "pid (comm) state ppid …"; comm may hold spaces or parentheses. */
function readStat(pid: number | string): { comm: string; ppid: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
    return ppid ? { comm, ppid } : undefined;
  } catch {
    return undefined;
  }
}

const SHELLS = new Set(["sh", "dash", "bash", "zsh", "ash", "busybox"]);

/**
 * The Claude Code process that runs this hook: `$CLAUDE_PID` where set (2.1.330), else the hook's parent,
 * or that shell's parent when a shell started the hook (hooks.json's commands run `node …` from `sh -c`:
 * measured on 2.1.197 and 2.1.330, claude → sh → node). It links a session to the one
 * `/clear` starts in the same process (docs/REFERENCE.md "Several loops").
 */
export function readClaudePid(env: Record<string, string | undefined>): string {
  if (env.CLAUDE_PID) return env.CLAUDE_PID;
  const parent = readStat(process.ppid);
  // not Linux: the hook's own parent stands in
  if (parent && SHELLS.has(parent.comm)) return parent.ppid;
  return String(process.ppid);
}
