/**
 * Vitest global setup: main's worker-thread entries (and the built-in engine's process entry) bundled once per test run (esbuild, our sources in one file,
 * packages left to Node), so a test that starts a worker loads one plain JavaScript file instead of booting tsx
 * in every new thread and compiling the entry's imports again (about 1 s per worker on the 2-core CI machine,
 * a few hundred ms this way). src/main/workers/start-worker.ts takes them from $FIREBRAND_WORKER_BUNDLES; the
 * built app never sets it. The bundles sit in node_modules/.cache so the packages they import resolve as usual.
 */
import { buildSync } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** The `built` name start-worker.ts asks for, and the source it stands for (electron.vite.config.ts's inputs). */
const ENTRIES: Record<string, string> = {
  'firebrand-worker.js': 'src/main/workers/worker-entry.ts',
  // The document reader's process (src/main/documents/reader-fork.ts forks it), like the engine below.
  'extract-process.js': 'src/main/documents/extract-process.ts',
  // Not a worker thread but the built-in engine's process (test/main/builtin/helpers.ts forks it): the same win.
  'builtin-engine.js': 'src/main/builtin/engine-process.ts',
};

export default function setup(): () => void {
  const dir = join(ROOT, 'node_modules/.cache/firebrand-test-workers', String(process.pid));
  mkdirSync(dir, { recursive: true });
  for (const [built, source] of Object.entries(ENTRIES)) {
    buildSync({
      entryPoints: [join(ROOT, source)],
      outfile: join(dir, built),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'inline',
      logLevel: 'warning',
    });
  }
  process.env['FIREBRAND_WORKER_BUNDLES'] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
