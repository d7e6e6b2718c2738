import { delimiter, dirname, join } from "node:path";
import { defineConfig } from "vitest/config";

// Tests make git repositories of their own; a git that runs the suite (`git rebase -x`, a hook) sets
// these, and they would point every git the tests start at the checkout's own repository.
for (const name of [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_PREFIX",
])
  delete process.env[name];

// Groups, one after the other: the unit tests and the process tests (the process tests whose behaviour can
// differ by Node line once more under each further line); the stress tests (SIGKILL and races), alone so
// that machine load does not starve them; e2e tests through the real Claude Code CLI; then the
// interactive UI in a pseudo-terminal (tui).
const STRESS = ["test/process/killSafety.test.ts", "test/process/races.test.ts"];
const NODE_LINES = [22, 24];
/**
 * What a further Node line can change: the bundles starting (CommonJS, the active bundle, Node's
 * compile cache, the published package), stdin and devices, V8's own messages for bad input, and a hook run of each
 * bundle. The other process tests run the same bundles the same way, once, under the first line.
 */
const NODE_LINE_TESTS = [
  "nodeLine",
  "bundles",
  "pack",
  "stdinDevices",
  "badInput",
  "badConditions",
  "stop",
  "promptLoop",
  "cliLoop",
].map((name) => `test/process/${name}.test.ts`);

/**
 * The Node-line process tests run again with the bundles run by Node `major` (test/support/runHook.ts `NODE`, and
 * first on PATH): the binary `npm ci` installs into test/node-versions, or CONTINUATION_LOOP_NODE<major>.
 * The Node running the tests runs the first pass (the "process" project).
 */
const onNode = (major: number, name: string, test: object) => {
  const node =
    process.env[`CONTINUATION_LOOP_NODE${major}`] ||
    join(import.meta.dirname, "test", "node-versions", "node_modules", `node-${major}`, "bin", "node");
  const env = {
    CONTINUATION_LOOP_TEST_NODE: node,
    CONTINUATION_LOOP_TEST_NODE_MAJOR: String(major),
    PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}`,
  };
  return { test: { name: `${name}-node${major}`, setupFiles: ["test/support/nodeLine.ts"], env, ...test } };
};
const processSuite = { include: NODE_LINE_TESTS };
/**
 * The stress tests run once, under Node 22 (Claude Code's own minimum): they try the product's state-file
 * transaction (locks, renames, fsync) under kills and races, which no Node line changes; what a line can
 * change is the Node-line passes' (NODE_LINE_TESTS).
 */
const STRESS_NODE = 22;

export default defineConfig({
  test: {
    // One temp folder for the whole run, removed at its end (test/support/tempRoot.ts).
    globalSetup: ["test/support/tempRoot.ts"],
    projects: [
      {
        test: {
          name: "unit",
          // Pure code in one process: the files share their imports instead of each loading them again.
          include: ["test/unit/**/*.test.ts"],
          isolate: false,
          testTimeout: 15_000,
          // Vitest's default is one worker fewer than the cores: one, on a 2-core machine.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "process",
          include: ["test/process/**/*.test.ts"],
          exclude: [...STRESS, "**/node_modules/**"],
          testTimeout: 15_000,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      ...NODE_LINES.map((major) =>
        onNode(major, "process", { ...processSuite, testTimeout: 15_000, maxWorkers: 2, sequence: { groupOrder: 0 } }),
      ),
      onNode(STRESS_NODE, "stress", {
        include: STRESS,
        testTimeout: 120_000,
        maxWorkers: 1,
        sequence: { groupOrder: 1 },
      }),
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // Long loops: `npm run test:soak` (vitest.soak.config.ts).
          exclude: ["test/e2e/soak*.test.ts", "**/node_modules/**"],
          globalSetup: ["test/e2e/support/globalSetup.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // Three CLI runs at once on a 2-core machine: with two, a quarter to a third of the CPU sat idle while Claude Code
          // waited on its own timers (CONTRIBUTING.md "The tests"). Tests inside a file run in order.
          maxWorkers: 3,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: "tui",
          include: ["test/tui/**/*.test.ts"],
          exclude: ["test/tui/soak*.test.ts", "**/node_modules/**"],
          globalSetup: ["test/e2e/support/globalSetup.ts"],
          // Startup and rendering wait on the screen; a loaded 2-core machine renders slowly.
          testTimeout: 180_000,
          hookTimeout: 60_000,
          maxWorkers: 3,
          sequence: { groupOrder: 3 },
        },
      },
      // The report's page in headless Chromium, the system's or @sparticuz/chromium's (test/browser/chromium.ts): fails,
      // never skips, when none can start.
      {
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 1,
          sequence: { groupOrder: 4 },
        },
      },
    ],
  },
});
