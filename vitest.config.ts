import { defineConfig } from "vitest/config";

// Four projects, one after the other: fast unit/process tests; the stress tests (SIGKILL and races),
// alone so that machine load does not starve them; e2e tests through the real Claude Code CLI; then
// the interactive UI in a pseudo-terminal (tui).
const STRESS = ["test/process/killSafety.test.ts", "test/process/races.test.ts"];

export default defineConfig({
  test: {
    // One temp folder for the whole run, removed at its end (test/support/tempRoot.ts).
    globalSetup: ["test/support/tempRoot.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", "test/tui/**", ...STRESS, "**/node_modules/**"],
          testTimeout: 15_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "stress",
          include: STRESS,
          testTimeout: 120_000,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/support/globalSetup.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // 2-core machine: at most two CLI runs at once; tests inside a file run in order.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: "tui",
          include: ["test/tui/**/*.test.ts"],
          globalSetup: ["test/e2e/support/globalSetup.ts"],
          // Startup and rendering wait on the screen; a loaded 2-core machine renders slowly.
          testTimeout: 180_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
