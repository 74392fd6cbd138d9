// `node bench/table.mjs`: bench/results.json as the markdown table the README shows.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { quick, at, node, figures } = JSON.parse(readFileSync(join(root, 'bench/results.json'), 'utf8'));
const fmt = (v) => (typeof v === 'number' ? (Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toFixed(2)))) : (v ?? ''));
console.log(`Run of ${at.slice(0, 10)} (${quick ? 'quick' : 'full'}, Node ${node}):\n`);
console.log('| figure | value | floor | ratio | goal | met |');
console.log('|---|---|---|---|---|---|');
for (const f of figures) {
  const cells = [f.figure, `${fmt(f.value)} ${f.unit ?? ''}`.trim(), fmt(f.floor), fmt(f.ratio), f.goal ?? '', f.met === undefined ? '' : f.met ? 'yes' : '**no**'];
  console.log(`| ${cells.map((c) => String(c).replace(/\|/g, '\\|').replace(/</g, '&lt;')).join(' | ')} |`);
}
