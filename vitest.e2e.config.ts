import { defineConfig } from 'vitest/config';

// End-to-end: the built app in serve mode, driven in Debian's Chromium, against the replay server.
// Timeouts are backstops against a hang, never speed checks (those live in `npm run bench`): a browser, a serve
// process and a replay server share 2 cores here with whatever else the machine does. Tests wait for state, so
// nothing is retried: a test that needs a retry has a timing assumption to remove.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    // One Chromium for the whole run (each file connects to it, each page in its own context).
    globalSetup: ['test/e2e/helpers/shared-chromium.ts'],
    testTimeout: 300_000,
    hookTimeout: 180_000,
    // Two files at once: one at a time left the 2 cores idle 47 % of a run (waits on serve mode, the replay
    // server, Chromium's other processes); two took 322-328 s against 510 s, and 380 s with a CPU hog beside them,
    // all green (December 6). Each file starts its own serve processes on their own ports and data folders.
    fileParallelism: true,
    maxWorkers: 2,
    expect: { poll: { timeout: 60_000 } },
  },
});
