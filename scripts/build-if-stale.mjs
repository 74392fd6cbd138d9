// Builds with electron-vite when the output is missing or older than any source file, so `npm run serve` and
// `npm start` always run what the tree says.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function buildIfStale(root) {
  const marker = join(root, 'out/main/serve.js');
  const sources = Math.max(newestMtime(join(root, 'src')), statSync(join(root, 'electron.vite.config.ts')).mtimeMs);
  if (existsSync(marker) && existsSync(join(root, 'out/renderer/index.html')) && statSync(marker).mtimeMs >= sources) return;
  console.error('Building Firebrand…');
  const result = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
