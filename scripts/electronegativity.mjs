// Runs Doyensec's electronegativity over the sources and fails on any high-severity finding.
// It tries to fetch Electron's release list and translations; without a network it says so and goes on.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version;
const dir = mkdtempSync(join(tmpdir(), 'electronegativity-'));
const csv = join(dir, 'findings.csv');
const run = spawnSync(process.execPath, [join(root, 'node_modules/@doyensec/electronegativity/dist/index.js'), '-i', join(root, 'src'), '-r', '-v', 'false', '-e', electronVersion, '-o', csv], {
  cwd: root,
  encoding: 'utf8',
  timeout: 180_000,
});
let rows;
try {
  rows = readFileSync(csv, 'utf8').trim().split('\n').slice(1).filter(Boolean);
} catch {
  console.error(`electronegativity produced no report (exit ${run.status ?? run.signal}):\n${run.stdout}\n${run.stderr}`);
  process.exit(1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const high = rows.filter((r) => /^[A-Z_]+,"(HIGH|CRITICAL)"/.test(r));
for (const r of rows) console.log(`electronegativity: ${r.split(',').slice(0, 5).join(' ')}`);
console.log(`electronegativity: ${rows.length} finding(s), ${high.length} high-severity`);
process.exit(high.length > 0 ? 1 : 0);
