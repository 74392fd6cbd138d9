import type { Plugin } from 'vitest/config';

const MODULE_PATH = '?modulePath';

/**
 * electron-vite's `?modulePath` import (a worker_thread entry bundled as its own file) for tests run from
 * source: it resolves to the entry's TypeScript path, which the extraction runner loads through tsx.
 */
export function modulePath(): Plugin {
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
