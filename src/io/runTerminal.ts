// What `continuation-loop run` needs of its terminal and its process: is stderr a terminal (then the
// progress is one live line), how wide it is, and the signals that stop it.
import type { Env } from "../core/loopFiles.js";

export interface RunTerminal {
  /** stderr is a terminal that can rewrite a line in place. */
  live: boolean;
  columns(): number;
}

export function readRunTerminal(env: Env): RunTerminal {
  // node:tty only for `run`: the helper also draws the status line, which loads everything it imports.
  const live = process.getBuiltinModule("node:tty").isatty(2) && env.TERM !== "dumb";
  return { live, columns: () => process.stderr.columns || Number(env.COLUMNS) || 80 };
}

const STOP_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Calls `handler` on SIGINT, SIGTERM or SIGHUP instead of dying at once; the returned function undoes it. */
export function onStopSignal(handler: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, handler);
  };
}
