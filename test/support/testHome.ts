// What a test's project and HOME hold: the loop's history file as tests poll it, and the processes of the HOME.
import fs from "node:fs";

/** The history file, one object per whole line ([] before the first): a hook may be appending one while a test polls. */
export function readHistory(file: string): Record<string, unknown>[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line, i, all) => line.trim() !== "" && i < all.length - 1)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The processes with `HOME=home` in their environment (Linux `/proc`): the Claude Code a test started, its service and sessions. */
function readHomeProcesses(home: string): number[] {
  const mine = `HOME=${home}\0`;
  return fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return fs.readFileSync(`/proc/${entry}/environ`, "latin1").includes(mine) ? [Number(entry)] : [];
    } catch {
      return []; // gone meanwhile, or another user's
    }
  });
}

/** Kills every process of `home` (`readHomeProcesses`) and returns their pids: what a test started and left running. */
export function killHomeProcesses(home: string): number[] {
  const pids = readHomeProcesses(home);
  for (const pid of pids)
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  return pids;
}
