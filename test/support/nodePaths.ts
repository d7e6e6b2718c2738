// PATH folders for "no Node, or an old one" (docs/REFERENCE.md): `node` is /usr/bin/node on a usual
// machine, so a PATH without it is a folder of its own holding only what the hooks' shell guard runs
// besides the shell's built-ins (`cat`), and, for an old Node, that Node as `node`.
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./runHook.js";

/** The lines of old Node that test/node-versions installs: Debian 12's packaged Node, and Ubuntu 22.04's. */
export const OLD_NODES = [
  { major: 18, version: "18.19.0" },
  { major: 12, version: "12.22.9" },
] as const;

/**
 * The Node binary of an old line: `npm ci` installs it into test/node-versions (Linux x64), or
 * CONTINUATION_LOOP_NODE<major> names one. Missing, it throws: the test fails, never skips.
 */
export function oldNodeBinary(major: 12 | 18): string {
  const node =
    process.env[`CONTINUATION_LOOP_NODE${major}`] ||
    join(REPO, "test", "node-versions", "node_modules", `node-${major}`, "bin", "node");
  const run = spawnSync(node, ["--version"], { encoding: "utf8" });
  if (run.status !== 0 || !run.stdout.startsWith(`v${major}.`))
    throw new Error(
      `Node ${major} is missing at ${node}: on Linux x64 \`npm ci\` installs it (test/node-versions); elsewhere set CONTINUATION_LOOP_NODE${major} (CONTRIBUTING.md "Set-up from a checkout").`,
    );
  return node;
}

/**
 * A folder to be the whole PATH: `cat` (the guard reads a prompt with it) and, when given, `node`. The
 * shell itself is run by its absolute path, as Claude Code runs `/bin/sh`.
 */
export function makeGuardPath(dir: string, node?: string): string {
  mkdirSync(dir, { recursive: true });
  symlinkSync(whichTool("cat"), join(dir, "cat"));
  if (node) symlinkSync(node, join(dir, "node"));
  return dir;
}

function whichTool(name: string): string {
  const run = spawnSync("/bin/sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  const path = run.stdout.trim();
  if (run.status !== 0 || !path.startsWith("/")) throw new Error(`${name} is not on this machine's PATH`);
  return path;
}
