// A process as a loop's sidecar records it (its owner's Claude Code, the `run` that drives it, the Claude Code that
// run started): "<pid>@<start>", where <start> is when the process started (Linux: clock ticks since boot), or
// "<pid>" alone where no start can be read (not Linux) and in sidecars written before starts were kept. The system
// gives an ended process's pid to a new one once its pids wrap (`/proc/sys/kernel/pid_max`, 32768 on many
// machines): the start tells the two apart.

/** The pid of a recorded process, for what a person reads (`kill 1234`). */
export const pidOf = (ref: string): string => ref.split("@")[0] ?? ref;

/** The pid and, when recorded, the start of a recorded process. */
export function parseProcessRef(ref: string): { pid: number; start: string | undefined } {
  const [pid = "", start] = ref.split("@");
  return { pid: /^\d+$/.test(pid) ? Number(pid) : Number.NaN, start };
}

/** The record of process `pid` that started at `start` (undefined when no start could be read). */
export const renderProcessRef = (pid: number | string, start: string | undefined): string =>
  start === undefined ? String(pid) : `${pid}@${start}`;

/**
 * Do two records name the same process? One without a start (an older sidecar, no `/proc`) is taken for any process
 * with its pid, as before starts were kept.
 */
export function isSameProcess(a: string, b: string): boolean {
  if (a === b) return true;
  const one = parseProcessRef(a);
  const other = parseProcessRef(b);
  return one.pid === other.pid && (one.start === undefined || other.start === undefined);
}
