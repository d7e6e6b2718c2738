import type { Env } from "../io/paths.js";

/** Everything a command touches besides the file system, so tests can run it in-process. */
export interface CliContext {
  env: Env;
  cwd: string;
  home: string;
  now: () => number;
  /** The folder holding hooks/, templates/ and .claude/commands/ (the plugin root or npm package). */
  packageRoot: string;
  readStdin: () => string;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Documented exit codes of `continuation-loop`. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
