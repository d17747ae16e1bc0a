import { defineConfig } from 'vitest/config';

// Test files run in parallel worker processes (2 on these machines); every test
// uses its own temp data directory and an ephemeral loopback port, so they do not
// fight over state. Browser and crash tests live in test/e2e and run one at a time.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // one line when the real exam papers (../shared/fixtures/real) are absent: test/real-papers.ts
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
