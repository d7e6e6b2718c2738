import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Env } from "../core/loopFiles.js";
import { loadChildProcess } from "./loadChildProcess.js";

/** The `node` a hook's shell runs (`command -v node`): its path, and its version when it answers. */
export interface PathNode {
  path: string;
  /** e.g. "22.12.0"; undefined when `node --version` did not answer with one. */
  version: string | undefined;
  /**
   * Without a version, what `node --version` did instead: its exit and the first line it printed (a version
   * manager's shim with no version set for the folder says so).
   */
  failure?: string;
}

/** What a `node --version` that gave no version did: its exit, or the error that kept it from starting, and its first line. */
function describeFailure(run: {
  status: number | null;
  signal: string | null;
  error?: Error;
  stderr?: string;
}): string {
  const said = (run.stderr ?? "")
    .split("\n")
    .find((line) => line.trim())
    ?.trim();
  const how = run.error
    ? `did not start (${(run.error as NodeJS.ErrnoException).code ?? run.error.message})`
    : run.signal
      ? `was killed (${run.signal})`
      : `exited ${run.status}`;
  return said ? `${how}: "${said.length > 120 ? `${said.slice(0, 119)}…` : said}"` : how;
}

const isExecutable = (file: string): boolean => {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first `node` on `env.PATH` (with Windows' extensions there), or undefined when there is none. */
export function readPathNode(env: Env): PathNode | undefined {
  const names =
    process.platform === "win32"
      ? ["node", ...(env.PATHEXT ?? ".EXE;.CMD").split(";").map((ext) => `node${ext.toLowerCase()}`)]
      : ["node"];
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const path = join(dir, name);
      if (!isExecutable(path)) continue;
      const run = loadChildProcess().spawnSync(path, ["--version"], {
        encoding: "utf8",
        timeout: 10_000,
        windowsHide: true,
      });
      const version = /^v?(\d+\.\d+\.\d+)/.exec(run.stdout ?? "")?.[1];
      return version ? { path, version } : { path, version, failure: describeFailure(run) };
    }
  }
  return undefined;
}
