/**
 * `npm run test:real`: the real llama-server tier. Finds llama-server ($LLAMA_SERVER, else the workspace's
 * shared/tools/llama-server/llama-server.gz); without one it prints one line saying why and succeeds. With one, it
 * builds the app if the build is stale (the UI tests run serve mode) and runs vitest on test/real.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { findLlamaServer } from './support/llama-server';

const root = resolve(import.meta.dirname, '../..');
const found = findLlamaServer();
if (found.path === null && process.env.LLAMA_SERVER) {
  // Asked for a binary that is not there: a typo should not pass as a skipped tier.
  console.error(`real llama-server tier: ${found.why}`);
  process.exit(1);
}
if (found.path === null) {
  console.log(`real llama-server tier skipped: ${found.why}`);
  process.exit(0);
}
console.log(`real llama-server tier: ${found.path} (from ${found.from})`);
const build = spawnSync(process.execPath, ['-e', "import('./scripts/build-if-stale.mjs').then((m) => m.buildIfStale(process.cwd()))"], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync(process.execPath, [resolve(root, 'node_modules/vitest/vitest.mjs'), 'run', '-c', 'vitest.real.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, LLAMA_SERVER: found.path },
});
process.exit(run.status ?? 1);
