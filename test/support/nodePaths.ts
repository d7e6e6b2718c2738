// PATH folders for "no Node, or an old one" (docs/REFERENCE.md): `node` is /usr/bin/node on a usual
// machine, so a PATH without it is a folder of its own holding only what the hooks' shell guard runs
// besides the shell's built-ins (`cat`), and, for an old Node, that Node as `node`; or a `node` that
// does not run.
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
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

/**
 * A `node` on PATH that does not run, as a person's machine can have one: a version manager's shim with no
 * version set for the folder (what asdf and mise print, and their exit codes; neither reads stdin), a
 * symlink to a node that is gone, a program built for another machine. `stderr` is what the shim prints.
 */
export const BROKEN_NODES = {
  asdf: {
    stderr:
      "No version is set for command node\nConsider adding one of the following versions in your config file at /home/me/.tool-versions\nnodejs 22.12.0\n",
    exit: 126,
  },
  mise: { stderr: "mise ERROR No version is set for shim: node\n", exit: 1 },
} as const;
export type BrokenNode = keyof typeof BROKEN_NODES | "dangling" | "foreign";

/** makeGuardPath's folder with a `node` that does not run (BROKEN_NODES, or `dangling` / `foreign`). */
export function makeBrokenNodePath(dir: string, kind: BrokenNode): string {
  makeGuardPath(dir);
  const node = join(dir, "node");
  if (kind === "dangling") symlinkSync(join(dir, "gone", "node"), node);
  else if (kind === "foreign") writeFileSync(node, foreignElf(), { mode: 0o755 });
  else {
    const { stderr, exit } = BROKEN_NODES[kind];
    writeFileSync(node, `#!/bin/sh\nprintf '%s' '${stderr}' >&2\nexit ${exit}\n`, { mode: 0o755 });
  }
  return dir;
}

/** An ELF header for a SPARC machine: the kernel refuses to start it (Exec format error). */
function foreignElf(): Buffer {
  const elf = Buffer.alloc(64);
  elf.write("\x7fELF", "latin1");
  elf.set([2, 1, 1], 4); // 64-bit, little-endian, version 1
  elf.writeUInt16LE(2, 16); // an executable
  elf.writeUInt16LE(2, 18); // SPARC
  elf.writeUInt32LE(1, 20);
  return elf;
}
