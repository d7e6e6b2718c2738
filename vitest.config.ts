import { defineConfig } from 'vitest/config';

// Two projects: fast unit/process tests first, then e2e tests that spawn the real
// Claude Code CLI (each run ~1 s, but hooks and retries can take much longer).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', '**/node_modules/**'],
          testTimeout: 15_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // 2-core machine: at most two CLI runs at once; tests inside a file run in order.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
