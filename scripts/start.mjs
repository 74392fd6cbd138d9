// `npm start`: build, make sure better-sqlite3 has a binding for Electron's ABI, and launch the desktop app.
// Tests run better-sqlite3 under Node's ABI from node_modules; Electron loads its own copy from out/native/,
// passed through better-sqlite3's `nativeBinding` option, so neither build breaks the other.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
buildIfStale(root);

const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version;
const binding = join(root, `out/native/electron-${electronVersion}/better_sqlite3.node`);

if (!existsSync(binding)) {
  console.error(`Preparing better-sqlite3 for Electron ${electronVersion}…`);
  const work = mkdtempSync(join(tmpdir(), 'firebrand-sqlite-'));
  const pkg = join(work, 'better-sqlite3');
  cpSync(join(root, 'node_modules/better-sqlite3'), pkg, { recursive: true, filter: (src) => !src.includes(`${'/'}build${'/'}`) });
  const run = (cmd, args) => spawnSync(cmd, args, { cwd: pkg, stdio: 'inherit', shell: process.platform === 'win32' });
  // A prebuilt binding for Electron's ABI when one is published; otherwise compile against Electron's headers.
  let ok =
    run(process.execPath, [join(root, 'node_modules/prebuild-install/bin.js'), '--runtime', 'electron', '--target', electronVersion, '--arch', process.arch]).status === 0;
  if (!ok) {
    ok = run('npx', ['--yes', 'node-gyp', 'rebuild', '--release', '--runtime=electron', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers']).status === 0;
  }
  const built = join(pkg, 'build/Release/better_sqlite3.node');
  if (!ok || !existsSync(built)) {
    console.error('Could not build better-sqlite3 for Electron. `npm run serve` runs Firebrand in a browser without it.');
    process.exit(1);
  }
  mkdirSync(dirname(binding), { recursive: true });
  cpSync(built, binding);
  rmSync(work, { recursive: true, force: true });
}

// Resolving `electron` downloads its binary on first use (it is not fetched at install time).
const electronPath = require('electron');
const result = spawnSync(electronPath, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 0);
