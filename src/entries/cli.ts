// `continuation-loop` (hooks/cli.js): the helper behind the slash commands and the installer.
import { EXIT } from "../app/context.js";
import { runCli } from "../app/runCli.js";
import { RUN_EXIT } from "../core/decideRun.js";
import { exitOnOldNode } from "./oldNode.js";
import { processContext } from "./processContext.js";

// `run` has exit codes of its own: 4, Claude Code could not run (its hooks could not).
exitOnOldNode("cli", process.argv[2] === "run" ? RUN_EXIT.claude : EXIT.failed);
runCli(process.argv.slice(2), processContext()).then((code) => {
  process.exitCode = code;
});
