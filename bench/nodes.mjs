// The Node that a bench runs the hooks on (docs/PERFORMANCE.md "Method"): `--node 22,24,20` names the suite's own
// binaries (test/node-versions) by major version, or paths; several run one whole bench each, in turn.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** `24` → the suite's Node 24 (or this Node when it is 24); a path stays a path. Undefined when there is none. */
export function resolveNode(spec) {
  if (!/^\d+$/.test(spec)) return resolve(spec);
  const suite = join(ROOT, "test/node-versions/node_modules", `node-${spec}`, "bin/node");
  if (existsSync(suite)) return suite;
  return process.versions.node.split(".")[0] === spec ? process.execPath : undefined;
}

/** `v24.21.0` of a Node binary, and whether the speed targets hold on it: Node 22 and later, Claude Code's own minimum. */
export function readNodeVersion(node) {
  const version = execFileSync(node, ["-p", "process.version"], { encoding: "utf8" }).trim();
  return { version, targeted: Number(version.slice(1).split(".")[0]) >= 22 };
}

/** Runs `script` once per Node with `--node` set to it, one after the other; the worst exit status. */
export function runEachNode(script, argv, nodes) {
  const rest = argv.filter((a, i) => a !== "--node" && argv[i - 1] !== "--node");
  let status = 0;
  for (const node of nodes) {
    const run = spawnSync(process.execPath, [script, ...rest, "--node", node], { stdio: "inherit" });
    status = Math.max(status, run.status ?? 1);
  }
  return status;
}
