// `continuation-loop` (hooks/cli.js): the helper behind the slash commands and the installer.
import { runCli } from "../app/runCli.js";
import { processContext } from "./processContext.js";

runCli(process.argv.slice(2), processContext()).then((code) => {
  process.exitCode = code;
});
