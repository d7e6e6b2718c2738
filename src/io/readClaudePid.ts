import { readFileSync } from "node:fs";

/** Is that process still running? (Signal 0 checks without sending anything; EPERM means it runs as another user.) */
export function readProcessRunning(pid: string): boolean {
  const n = Number(pid);
  if (!Number.isSafeInteger(n) || n <= 0) return false;
  try {
    process.kill(n, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The Claude Code process that runs this hook: `$CLAUDE_PID` where set (2.1.330), else the parent
 * of the shell that started the hook (measured on 2.1.197 and 2.1.330: claude → sh → node). It
 * links a session to the one `/clear` starts in the same process (README "Several loops").
 */
export function readClaudePid(env: Record<string, string | undefined>): string {
  if (env.CLAUDE_PID) return env.CLAUDE_PID;
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces or parentheses.
    const stat = readFileSync(`/proc/${process.ppid}/stat`, "utf8");
    const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
    if (ppid) return ppid;
  } catch {
    // not Linux: the hook's own parent stands in
  }
  return String(process.ppid);
}
