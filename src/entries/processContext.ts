import { realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Context } from "../app/context.js";
import { armCrashPoint } from "../io/crashPoint.js";
import { armDiskFull } from "../io/diskFull.js";
import { readStdin } from "../io/readStdin.js";
import { writeOutput } from "../io/writeOutput.js";
import { ANSWER_COLUMNS_ENV } from "../core/protocol.js";

/** The one Context of a process: the environment is read here and passed in everywhere else. */
export function processContext(): Context {
  armCrashPoint(process.env);
  armDiskFull(process.env);
  return {
    env: process.env,
    cwd: process.cwd(),
    // node:os is loaded only when a hook needs the home folder: loading it costs every hook run.
    get home() {
      return process.getBuiltinModule("node:os").homedir();
    },
    now: Date.now,
    // The bundle runs as hooks/<name>.js (through a bin link too), so the package root is one folder up.
    get packageRoot() {
      const script = process.argv[1] ?? ".";
      try {
        return resolve(dirname(realpathSync(script)), "..");
      } catch {
        return resolve(dirname(script), "..");
      }
    },
    readStdin,
    out: (text) => writeOutput(1, text),
    err: (text) => writeOutput(2, text),
    // A getter: only `--help` asks, and making process.stdout costs every hook run.
    get columns() {
      // A hook's stdout is a pipe: the width, when known, is the module's measure of where the answer shows.
      const given = Number(process.env[ANSWER_COLUMNS_ENV]);
      if (Number.isInteger(given) && given >= 20) return given;
      return process.stdout.isTTY ? process.stdout.columns : undefined;
    },
  };
}
