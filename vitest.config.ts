import { defineConfig } from 'vitest/config';

// Timeouts here are backstops against a hang, never speed checks (those live in `npm run bench`): CI runs on a
// 2-core machine shared with other work, where a test may take many times its idle duration.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'test/real/**', 'node_modules/**'],
    // Worker-thread entries bundled once for the whole run (test/support/worker-bundles.ts).
    globalSetup: ['test/support/worker-bundles.ts'],
    // Two files at once even on 2 cores (vitest's default there is one): many files wait on child processes (real
    // engines, readers, serve), so the run took 218 s with one worker (CI) and 146-148 s with two (three runs).
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for state; its default of 1 s is a speed check in disguise.
    expect: { poll: { timeout: 30_000 } },
  },
});
