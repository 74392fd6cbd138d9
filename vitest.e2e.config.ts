import { defineConfig } from 'vitest/config';

// End-to-end: the built app in serve mode, driven in Debian's Chromium, against the replay server.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // A browser, a serve process and a replay server share 2 cores here: one retry absorbs a scheduling stall;
    // a real failure still fails twice.
    retry: 1,
  },
});
