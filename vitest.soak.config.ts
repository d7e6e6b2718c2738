import { defineConfig } from "vitest/config";

// `npm run test:soak` (docs/HEADLESS.md): long loops through the real CLI, -p and the terminal, on the
// newest Claude Code. Minutes each, so not part of `npm test`; one at a time on a loaded machine.
export default defineConfig({
  test: {
    globalSetup: ["test/support/tempRoot.ts", "test/e2e/support/globalSetup.ts"],
    include: ["test/e2e/soak*.test.ts", "test/tui/soak*.test.ts"],
    testTimeout: 1_800_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
  },
});
