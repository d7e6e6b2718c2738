// Stop hook entry: read stdin, decide, answer. Exit 2 only to continue a loop; never on error.
import { homedir } from "node:os";
import { readStdin } from "../io/readStdin.js";
import { writeOutput } from "../io/writeOutput.js";
import { stateFileExists } from "./quickLocate.js";

/** The active path: a state file exists. No top-level await: the bundle is CommonJS (scripts/build.mjs). */
async function runActive(stdin: string): Promise<void> {
  try {
    // Loaded only when a loop exists: the parser and schemas cost start-up time.
    const { runStopHook } = await import("../io/runStopHook.js");
    const result = runStopHook({ stdin, env: process.env, cwd: process.cwd(), home: homedir(), now: Date.now });
    if (result.stdout) writeOutput(1, result.stdout);
    if (result.stderr) writeOutput(2, result.stderr);
    process.exitCode = result.exitCode;
  } catch (error) {
    // A bug must not trap Claude in a loop or print a stack trace at the user.
    const detail = error instanceof Error ? error.message : String(error);
    writeOutput(
      1,
      `${JSON.stringify({ systemMessage: `continuation-loop: internal error in the Stop hook (${detail}); the loop did not continue.` })}\n`,
    );
    process.exitCode = 0;
  }
}

const stdin = readStdin();
if (stateFileExists(stdin, process.env, process.cwd())) void runActive(stdin);
