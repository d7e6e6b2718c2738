// Setup file of the process suite's extra Node projects (vitest.config.ts): every test file of the
// project fails, never skips, when its Node binary is missing or is not of the line it stands for.
import { spawnSync } from "node:child_process";

const node = process.env.CONTINUATION_LOOP_TEST_NODE;
const major = process.env.CONTINUATION_LOOP_TEST_NODE_MAJOR;
if (node && major) {
  const run = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" });
  const version = run.status === 0 ? run.stdout.trim() : "";
  if (version.split(".")[0] !== major)
    throw new Error(
      `The process suite's Node ${major} is ${version ? `Node ${version}` : "missing"} at ${node}. ` +
        `On Linux x64, \`npm ci\` installs it (test/node-versions); elsewhere set CONTINUATION_LOOP_NODE${major} ` +
        `to a Node ${major} binary (CONTRIBUTING.md "Set-up from a checkout").`,
    );
}
