/**
 * Document extraction beside a streaming answer (issue 20): token-to-screen p99 in serve mode + Chromium (as in
 * bench/latency.bench.ts) while another client has a 300-page PDF's text extracted (the reader process serve mode starts:
 * bench/lib/attach-child.mjs attaches it, then asks for its text), against the same stream with no extraction.
 * The two alternate in rounds so both sample the same load; each round extracts a new file (the same PDF with a
 * different trailing comment, so its digest is new and nothing comes from the kept text). The PDF is printed by
 * Chromium from generated HTML and cached in the temp folder.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { withCleanup } from './lib/cleanup';
import { ANSWER, browser, openFirebrand, requireBuild, sendInNewChat, serve, tempDir, waitAnswered } from './lib/firebrand-ui';
import { clock, startPacedServer, type PacedServer } from './lib/paced-stream';
import { armProbe, clockOffset, installProbe, latencies, readProbe, waitPainted } from './lib/page-probe';
import { percentile, quick, report } from './lib/report';

const PAGES = 300;
const RATE = 1_000;
const TOKENS = quick ? 1_000 : 2_000;
const ROUNDS = quick ? 2 : 5;
const PROMPT_MS = 200;

const WORDS = ['quarterly', 'revenue', 'region', 'north', 'growth', 'percent', 'the', 'report', 'says', 'and', 'costs', 'team', 'budget', 'approved', 'market', 'share'];

/** A PAGES-page text PDF printed by Chromium (A4, a heading and six paragraphs a page), cached by its HTML. */
async function reportPdf(b: Browser): Promise<Uint8Array> {
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const paragraph = () => `${Array.from({ length: 60 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}.`;
  const page = (n: number) => `<h2>Section ${n + 1}</h2>${Array.from({ length: 6 }, () => `<p>${paragraph()}</p>`).join('')}`;
  const html = `<html><body style="font-family: sans-serif">${Array.from({ length: PAGES }, (_, i) => page(i)).join('<div style="break-after: page"></div>')}</body></html>`;
  const dir = join(tmpdir(), 'firebrand-bench-cache');
  const path = join(dir, `report-${createHash('sha256').update(html).digest('hex').slice(0, 12)}.pdf`);
  if (existsSync(path)) return new Uint8Array(readFileSync(path));
  const p = await b.newPage();
  await p.setContent(html);
  const pdf = new Uint8Array(await p.pdf({ format: 'A4' }));
  await p.close();
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, pdf);
  return pdf;
}

let tagCounter = 0;
function stamped(count: number): { tag: string; tokens: string[] } {
  const tag = `k${++tagCounter}`;
  const sep = (i: number) => (i === 0 ? '' : i % 40 === 0 ? '\n\n' : ' ');
  return { tag, tokens: Array.from({ length: count }, (_, i) => `${sep(i)}${tag}x${i}`) };
}

/** One stream into a new chat; its latencies and when it was written (bench clock). */
async function stream(page: Page, paced: PacedServer, count: number): Promise<{ lat: number[]; from: number; to: number }> {
  const { tag, tokens } = stamped(count);
  paced.setPlan({ tokens, rate: RATE, firstDelayMs: PROMPT_MS });
  const offset = await clockOffset(page);
  await armProbe(page, ANSWER, tag);
  const written = paced.nextStream();
  await sendInNewChat(page, `stream at ${RATE}`);
  const writes = await written;
  await waitPainted(page, count - 1, 10_000);
  const lat = latencies(writes, await readProbe(page), offset);
  await waitAnswered(page);
  if (lat.length < count * 0.9) throw new Error(`only ${lat.length} of ${count} tokens were seen painted`);
  return { lat, from: writes[0]!, to: writes[writes.length - 1]! };
}

await withCleanup(async (cleanup) => {
  requireBuild();
  const paced = await startPacedServer('');
  cleanup.add('paced server', () => paced.close());
  const b = await browser(cleanup);
  const pdf = await reportPdf(b);
  const files = tempDir(cleanup, 'firebrand-bench-extraction-');
  const s = await serve(cleanup, join(files, 'data'), paced.url);
  const app = await openFirebrand(b, s.url);
  await installProbe(app);

  /** Starts extracting a new copy of the PDF; resolves once it is stored, with a promise of the extraction's end. */
  let copy = 0;
  const extract = async (): Promise<{ done: Promise<{ at: number; ms: number }> }> => {
    const path = join(files, `report-${++copy}.pdf`);
    writeFileSync(path, Buffer.concat([pdf, Buffer.from(`\n%bench copy ${copy}\n`)]));
    const child = spawn(process.execPath, [join(import.meta.dirname, 'lib/attach-child.mjs'), `${s.origin.replace('http', 'ws')}/ipc?token=${s.token}`, s.origin, path], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanup.add('attach child', () => child.kill('SIGTERM'));
    let out = '';
    const seen = (re: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const m = re.exec(out);
          if (m) resolve(m);
          else if (out.includes('FAILED')) reject(new Error(out));
        };
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          check();
        });
        child.once('exit', () => (re.exec(out) ? check() : reject(new Error(`the attach child ended: ${out}`))));
      });
    const done = seen(/EXTRACTED (\d+) (\d+)/).then((m) => {
      if (Number(m[2]) < PAGES * 1000) throw new Error(`the extraction gave ${m[2]} characters`);
      return { at: clock(), ms: Number(m[1]) };
    });
    await seen(/ADDED/);
    return { done };
  };

  // Warm-up: the first answer pays for JIT and lazy chunks, the first extraction for the worker's code.
  await stream(app, paced, 200);
  await (await extract()).done;

  const value: number[] = [];
  const floor: number[] = [];
  const overlap: number[] = [];
  const extractMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    floor.push(...(await stream(app, paced, TOKENS)).lat);
    const started = clock();
    const { done } = await extract();
    const r = await stream(app, paced, TOKENS);
    const ended = await done;
    value.push(...r.lat);
    extractMs.push(ended.ms);
    // The share of the stream's writing time during which the extraction ran.
    overlap.push(Math.max(0, Math.min(r.to, ended.at) - Math.max(r.from, started)) / (r.to - r.from));
  }
  value.sort((a, b) => a - b);
  floor.sort((a, b) => a - b);
  const v = percentile(value, 99);
  const f = percentile(floor, 99);
  report({
    figure: `token-to-screen p99 at ${RATE.toLocaleString('en-US')} tokens/s while a ${PAGES}-page PDF is extracted (${ROUNDS} x ${TOKENS} tokens)`,
    value: Number(v.toFixed(1)),
    unit: 'ms',
    floor: Number(f.toFixed(1)),
    ratio: Number((v / f).toFixed(2)),
    goal: '<= 1.1x floor (the same stream, no extraction)',
    met: v <= 1.1 * f,
    note: `p50 ${percentile(value, 50).toFixed(1)} vs ${percentile(floor, 50).toFixed(1)} ms; extraction ${extractMs.map((x) => (x / 1000).toFixed(1)).join('/')} s, covering ${overlap.map((x) => `${Math.round(x * 100)}%`).join('/')} of each stream`,
  });
});
