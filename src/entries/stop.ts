// Stop hook entry: read stdin, decide, answer. Exit 2 only to continue a loop; never on error.
import { homedir } from "node:os";
import { readStdin } from "../io/readStdin.js";
import { stateFileExists } from "./quickLocate.js";

const stdin = readStdin();
if (stateFileExists(stdin, process.env, process.cwd())) {
  try {
    // Loaded only when a loop exists: the parser and schemas cost start-up time.
    const { runStopHook } = await import("../io/runStopHook.js");
    const result = runStopHook({ stdin, env: process.env, cwd: process.cwd(), home: homedir(), now: Date.now });
    if (result.stdout) process.stdout.write(result.stdout);
    if (result.stderr) process.stderr.write(result.stderr);
    process.exitCode = result.exitCode;
  } catch (error) {
    // A bug must not trap Claude in a loop or print a stack trace at the user.
    const detail = error instanceof Error ? error.message : String(error);
    process.stdout.write(`${JSON.stringify({ systemMessage: `continuation-loop: internal error in the Stop hook (${detail}); the loop did not continue.` })}\n`);
    process.exitCode = 0;
  }
}
