// `continuation-loop` (hooks/cli.js): the helper behind the slash commands and the installer.
import { runCli } from "../app/runCli.js";
import { exitOnOldNode } from "./oldNode.js";
import { processContext } from "./processContext.js";

exitOnOldNode("cli");
runCli(process.argv.slice(2), processContext()).then((code) => {
  process.exitCode = code;
});
