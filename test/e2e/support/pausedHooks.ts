// Hooks stopped at a test-only pause point (`CONTINUATION_LOOP_TEST_CRASH_AT=<point>:pause`, src/io/crashPoint.ts)
// inside a real Claude Code run: a test acts while the hook holds that moment, then lets it go on.
import fs from "node:fs";

/** The processes with `HOME=home` in their environment that are stopped (SIGSTOP, state T), with their command line. */
function readStoppedProcesses(home: string): { pid: number; command: string }[] {
  const mine = `HOME=${home}\0`;
  return fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "latin1");
      // The state follows the command name, which is in parentheses and may hold spaces.
      if (stat[stat.lastIndexOf(")") + 2] !== "T") return [];
      if (!fs.readFileSync(`/proc/${entry}/environ`, "latin1").includes(mine)) return [];
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, "latin1").replaceAll("\0", " ");
      return [{ pid: Number(entry), command }];
    } catch {
      return []; // gone meanwhile, or another user's
    }
  });
}

/**
 * Watches `home`'s processes for hooks stopped at their pause point: `onPause(n, command)` runs for the n-th
 * (from 1) before it is sent SIGCONT. `stop()` ends the watch; `count()` says how many paused so far.
 */
export function watchPausedHooks(
  home: string,
  onPause: (n: number, command: string) => void,
): { stop(): void; count(): number } {
  const seen = new Set<number>();
  const timer = setInterval(() => {
    for (const hook of readStoppedProcesses(home)) {
      if (seen.has(hook.pid)) continue;
      seen.add(hook.pid);
      try {
        onPause(seen.size, hook.command);
      } finally {
        process.kill(hook.pid, "SIGCONT");
      }
    }
  }, 10);
  return { stop: () => clearInterval(timer), count: () => seen.size };
}
