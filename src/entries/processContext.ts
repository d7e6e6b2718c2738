import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import type { Context } from "../app/context.js";
import { readStdin } from "../io/readStdin.js";
import { writeOutput } from "../io/writeOutput.js";

/**
 * The one Context of a process. `stdinMayBeTerminal`: the helper, which a person may run by hand
 * (a terminal then gives no input rather than a wait); hooks always get a pipe.
 */
// biome-ignore format: the parentheses make V8 compile it with the script, not at first call (docs/ARCHITECTURE.md)
export const processContext = (function processContext({ stdinMayBeTerminal = false } = {}): Context {
  return {
    env: process.env,
    cwd: process.cwd(),
    // $HOME is what os.homedir() returns where it is set (POSIX); node:os costs a hook ~0.4 ms to load.
    get home() {
      return (process.platform !== "win32" && process.env.HOME) || homedir();
    },
    now: Date.now,
    // The bundle runs as hooks/<name>.js (through a bin link too), so the package root is one folder
    // up. Worked out on first use: the Stop hook never needs it.
    get packageRoot() {
      const script = process.argv[1] ?? ".";
      try {
        return resolve(dirname(realpathSync(script)), "..");
      } catch {
        return resolve(dirname(script), "..");
      }
    },
    readStdin: () => readStdin(stdinMayBeTerminal),
    out: (text) => writeOutput(1, text),
    err: (text) => writeOutput(2, text),
  };
});
