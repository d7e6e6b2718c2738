// The first thing every entry does (docs/REFERENCE.md "No Node, or an old one"): on a Node older than the
// hooks need, answer as the shell guard in hooks/hooks.json answers when there is no node at all, and
// exit before anything that Node may lack runs. The idle bundles are built so that such a Node parses
// them (scripts/build.mjs, `target`); the active bundles never load there.
import { matchLoopCommand } from "../core/loopCommand.js";
import { acceptsNodeVersion, renderNodeNeeded } from "../core/nodeSupport.js";
import { parseJsonObject, stringField } from "../core/hookStdin.js";
import { readStdin } from "../io/readStdin.js";
import { writeOutput } from "../io/writeOutput.js";

/**
 * Returns on a Node the hooks run on. Otherwise: the Stop and the other events exit 0 quietly; a loop
 * command is refused with the line; a session's start tells it once; the helper prints it and exits with
 * `cliExitCode`.
 */
export function exitOnOldNode(hook: "stop" | "prompt" | "session" | "cli", cliExitCode = 1): void {
  const found = process.versions.node;
  if (acceptsNodeVersion(found)) return;
  const line = renderNodeNeeded(found);
  if (hook === "cli") {
    writeOutput(2, `${line}\n`);
    process.exit(cliExitCode);
  }
  const input = hook === "stop" ? undefined : parseJsonObject(readStdin());
  const prompt = stringField(input, "prompt");
  const source = stringField(input, "source");
  if (hook === "prompt" && prompt !== undefined && matchLoopCommand(prompt))
    writeOutput(1, `${JSON.stringify({ decision: "block", reason: line })}\n`);
  else if (
    hook === "session" &&
    stringField(input, "hook_event_name") === "SessionStart" &&
    (source === "startup" || source === "resume")
  )
    writeOutput(1, `${JSON.stringify({ systemMessage: line })}\n`);
  process.exit(0);
}
