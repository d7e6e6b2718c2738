import { homedir } from "node:os";
import { fileURLToPath } from "node:url";
import type { Context } from "../app/context.js";
import { readStdin } from "../io/readStdin.js";
import { writeOutput } from "../io/writeOutput.js";

/** The one Context of a process; the bundle sits in hooks/, so the package root is one folder up. */
export function processContext(bundleUrl: string): Context {
  return {
    env: process.env,
    cwd: process.cwd(),
    home: homedir(),
    now: Date.now,
    // Worked out on first use: the Stop hook never needs it.
    get packageRoot() {
      return fileURLToPath(new URL("..", bundleUrl));
    },
    readStdin,
    out: (text) => writeOutput(1, text),
    err: (text) => writeOutput(2, text),
  };
}
