import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that assert a latency (a p99 within 2× of the same run's p99 without an attack) are
 * not part of `npm test`: they live in test/timed and run with `npm run test:timed`, one at a
 * time, on a machine left to them (docs/decisions.md, "No timing assertion in npm test").
 * What those attacks must not break, whatever the timing, is tested in the suite.
 */
const TIMED = ['test/timed/**/*.test.ts'];

// Test files run in parallel worker processes (2 on these machines); every test
// uses its own temp data directory and an ephemeral loopback port, so they do not
// fight over state. Browser and crash tests live in test/e2e and run one at a time.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // fails a test during which a browser page broke the Content-Security-Policy
    setupFiles: ['test/setup/csp-violations.ts'],
    projects: [
      {
        extends: true,
        // one line when the real exam papers (../shared/fixtures/real) are absent: test/real-papers.ts
        // (here only: a root globalSetup would run once per project and print it twice)
        test: { name: 'suite', globalSetup: ['test/global-setup.ts'], include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: [...configDefaults.exclude, ...TIMED], fileParallelism: true },
      },
      {
        extends: true,
        test: { name: 'timed', include: TIMED, fileParallelism: false },
      },
    ],
  },
});
