// `npm run bench [-- --quick]`: runs every bench/*.bench.ts, prints one table (figure, value, floor, ratio, goal)
// and writes bench/results.json. Each benchmark measures its figure beside its floor in the same run.
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts') || f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const figures = [];
let failed = 0;
for (const file of files) {
  const started = Date.now();
  const args = ['--import', 'tsx', join(root, 'bench', file), ...(quick ? ['--quick'] : [])];
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 20 * 60_000 });
  const lines = (run.stdout ?? '').split('\n').filter((l) => l.startsWith('BENCH '));
  for (const line of lines) figures.push({ bench: file, ...JSON.parse(line.slice(6)) });
  if (run.status !== 0 || lines.length === 0) {
    failed++;
    console.error(`${file} failed (exit ${run.status ?? run.signal}):\n${(run.stderr ?? '').slice(-3000)}`);
  } else {
    console.error(`${file}: ${lines.length} figure(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

const fmt = (v) => (typeof v === 'number' ? (Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toFixed(2)))) : v ?? '');
const rows = [['figure', 'value', 'unit', 'floor', 'ratio', 'goal', 'met']].concat(
  figures.map((f) => [f.figure, fmt(f.value), f.unit, fmt(f.floor), fmt(f.ratio), f.goal ?? '', f.met === undefined ? '' : f.met ? 'yes' : 'NO']),
);
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
for (const [i, r] of rows.entries()) {
  console.log(r.map((c, j) => String(c).padEnd(widths[j])).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
writeFileSync(join(root, 'bench/results.json'), JSON.stringify({ quick, at: new Date().toISOString(), node: process.version, figures }, null, 2) + '\n');
console.log(`\n${figures.length} figures from ${files.length} benchmarks written to bench/results.json${quick ? ' (quick mode)' : ''}`);
process.exit(failed > 0 ? 1 : 0);
