import { defineConfig, type Plugin } from 'vitest/config';

const MODULE_PATH = '?modulePath';

/**
 * electron-vite's `?modulePath` import (a worker_thread entry bundled as its own file) for tests run from
 * source: it resolves to the entry's TypeScript path, which the extraction runner loads through tsx.
 */
function modulePath(): Plugin {
  return {
    name: 'firebrand:module-path',
    enforce: 'pre',
    async resolveId(id, importer) {
      if (!id.endsWith(MODULE_PATH)) return null;
      const target = await this.resolve(id.slice(0, -MODULE_PATH.length), importer, { skipSelf: true });
      return target ? `\0module-path:${target.id}` : null;
    },
    load(id) {
      return id.startsWith('\0module-path:') ? `export default ${JSON.stringify(id.slice('\0module-path:'.length))};` : null;
    },
  };
}

// Timeouts here are backstops against a hang, never speed checks (those live in `npm run bench`): CI runs on a
// 2-core machine shared with other work, where a test may take many times its idle duration.
export default defineConfig({
  plugins: [modulePath()],
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'test/real/**', 'node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for state; its default of 1 s is a speed check in disguise.
    expect: { poll: { timeout: 30_000 } },
  },
});
