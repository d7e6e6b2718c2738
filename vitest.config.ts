import { defineConfig } from "vitest/config";

// Three projects, one after the other: fast unit/process tests; the stress tests (SIGKILL and races),
// alone so that machine load does not starve them; then e2e tests through the real Claude Code CLI.
const STRESS = ["test/process/killSafety.test.ts", "test/process/races.test.ts"];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", ...STRESS, "**/node_modules/**"],
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
    ],
  },
});
