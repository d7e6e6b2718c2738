import { readFileSync } from "node:fs";
import { parseProcessRef, renderProcessRef } from "../core/processRef.js";
import { waitUntil } from "./sleep.js";

/**
 * `/proc/<pid>/stat` (Linux): "pid (comm) state ppid … starttime …"; comm may hold spaces or parentheses, so the
 * fields are counted from the last ")". `start` is field 22, when the process started in clock ticks since boot.
 */
function readStat(pid: number | string): { comm: string; state: string; ppid: string; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [state, ppid, start] = [fields[0], fields[1], fields[19]];
    if (!state || !ppid || !start) return undefined;
    return { comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), state, ppid, start };
  } catch {
    return undefined;
  }
}

/**
 * What signal 0 says of a recorded process (it checks without sending anything): running (EPERM: as another
 * user), gone (no such process, a zombie, or another process that has its pid now: it started at another time),
 * or nothing to go by (not a pid, or another error).
 */
function probeProcess(ref: string): "running" | "gone" | "unknown" {
  const { pid, start } = parseProcessRef(ref);
  if (!Number.isSafeInteger(pid) || pid <= 0) return "unknown";
  try {
    process.kill(pid, 0);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EPERM" ? "running" : code === "ESRCH" ? "gone" : "unknown";
  }
  // A killed process whose parent has not yet reaped it (a zombie) still answers signal 0, but is gone.
  const stat = readStat(pid);
  return stat && (stat.state === "Z" || (start !== undefined && stat.start !== start)) ? "gone" : "running";
}

/** The record of process `pid` (`src/core/processRef.ts`): with its start where `/proc` tells it. */
export const readProcessRef = (pid: number | string): string => renderProcessRef(pid, readStat(pid)?.start);

/** Is that recorded process still running? */
export const readProcessRunning = (ref: string): boolean => probeProcess(ref) === "running";

/**
 * Waits until that process is no longer running, looking every 50 ms (no Node API waits on a process that is not
 * our child); false when it still runs after `timeoutMs`.
 */
export const waitForProcessEnd = (ref: string, timeoutMs: number): boolean =>
  waitUntil(() => !readProcessRunning(ref), timeoutMs, 50);

/**
 * Is that process surely gone (SIGKILL, crash)? Then nobody will release its lock or rename its temp
 * files. A pid that is no number is never judged gone; our own runs.
 */
export const readProcessGone = (pid: number): boolean => probeProcess(String(pid)) === "gone";

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

/** The Claude Code process that runs this hook (`readClaudePid`), as a loop's sidecar records it. */
export const readClaudeProcess = (env: Record<string, string | undefined>): string =>
  readProcessRef(readClaudePid(env));
