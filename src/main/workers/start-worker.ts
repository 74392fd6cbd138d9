/**
 * Starts a worker thread on one of main's worker entries, wherever main runs from. Built (electron-vite), each
 * entry is its own file beside the code that starts it (`out/main/<name>.js`: shared chunks sit beside the
 * entries, electron.vite.config.ts). From the TypeScript sources (vitest, tsx, `npm run serve` in a test) the
 * entry is loaded through tsx, as those load everything else, unless the test run bundled it beforehand.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export interface WorkerEntry {
  /** The built file's name in out/main (an `input` of electron.vite.config.ts). */
  built: string;
  /** The entry's TypeScript source, relative to the starting module's folder. */
  source: string;
}

/**
 * Where an entry's code is, seen from the module at `from` (its `import.meta.url`): the built file beside it, the
 * test run's bundle, or (`tsx`) the TypeScript source, to be loaded through tsx.
 */
export function entryFile(entry: WorkerEntry, from: string): { file: string; tsx: boolean } {
  const here = fileURLToPath(from);
  const built = join(dirname(here), entry.built);
  if (existsSync(built)) return { file: built, tsx: false };
  if (!here.endsWith('.ts')) throw new Error(`${built} is missing: the build is incomplete.`);
  // The test run bundled the entries once (test/support/worker-bundles.ts): no tsx boot in every new thread.
  const bundles = process.env['FIREBRAND_WORKER_BUNDLES'];
  if (bundles && existsSync(join(bundles, entry.built))) return { file: join(bundles, entry.built), tsx: false };
  return { file: join(dirname(here), entry.source), tsx: true };
}

/** `from` is the starting module's `import.meta.url`. */
export function startWorker(entry: WorkerEntry, from: string, options: WorkerOptions): Worker {
  const { file, tsx } = entryFile(entry, from);
  if (!tsx) return new Worker(file, options);
  const bootstrap = `import('tsx/esm/api').then((api) => api.tsImport(${JSON.stringify(pathToFileURL(file).href)}, ${JSON.stringify(from)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}
