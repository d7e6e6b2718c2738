// `continuation-loop` (hooks/cli.js): the helper behind the slash commands and the installer.
import { homedir } from "node:os";
import { fileURLToPath } from "node:url";
import { runCli } from "../cli/main.js";
import { readStdin } from "../io/readStdin.js";
import { writeOutput } from "../io/writeOutput.js";

// This file is hooks/cli.js once bundled: the package root (hooks/, templates/, .claude/commands/) is one folder up.
const packageRoot = fileURLToPath(new URL("..", import.meta.url));

process.exitCode = runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  home: homedir(),
  now: Date.now,
  packageRoot,
  readStdin,
  out: (text) => writeOutput(1, text),
  err: (text) => writeOutput(2, text),
});
