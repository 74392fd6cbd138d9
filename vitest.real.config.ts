import { defineConfig } from 'vitest/config';

// The real llama-server tier (test/real): scripted GGUFs played by a real llama-server, through the engine and
// through serve mode in Chromium. Run it with `npm run test:real`, which finds the binary or says why it skips.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    include: ['test/real/**/*.real.test.ts'],
    // One Chromium for the whole run (each file connects to it, each page in its own context).
    globalSetup: ['test/e2e/helpers/shared-chromium.ts'],
    hookTimeout: 90_000,
    // Polls wait for state (an answer ends, a page reloads); on a busy machine that takes more than a second.
    expect: { poll: { timeout: 30_000, interval: 50 } },
    // Servers, a browser and serve mode share 2 cores: one file at a time.
    fileParallelism: false,
  },
});
