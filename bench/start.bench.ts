/**
 * Start (issue 8, item 7): serve mode from spawn to an interactive composer in an already running Chromium
 * (composer present, a model selected: a message can be sent), in a fresh browser context each time so nothing
 * is cached. Floor: spawning `node -e ''` to its exit plus Chromium loading a blank page from a trivial node
 * HTTP server: the cost of any Node program and any page on this machine.
 *
 * A second figure: the same start with a long history in the database (10,000 conversations of 20 turns, as in
 * bench/memory), against the start with none in the same run. The conversation list comes a page at a time
 * (issue 20), so what a start reads and renders should not grow with the history.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { startServeProcess } from '../test/e2e/helpers/serve-process';
import { withCleanup, type Cleanup } from './lib/cleanup';
import { copyBigDatabase, type BigDatabaseShape } from './lib/big-database';
import { browser, requireBuild, tempDir, waitInteractive } from './lib/firebrand-ui';
import { BARE_PAGE, startPacedServer } from './lib/paced-stream';
import { percentile, quick, report } from './lib/report';

const RUNS = quick ? 2 : 5;
const HISTORY: BigDatabaseShape = quick ? { conversations: 1_000, turnsPerConversation: 20 } : { conversations: 10_000, turnsPerConversation: 20 };

/** Spawn to "serving at" of each Firebrand start, for the note (where the time goes). */
const listening: number[] = [];

/** `dataDir`: a data folder with a history in it (kept between starts, as a user's is); else a new empty one. */
async function firebrandStart(cleanup: Cleanup, b: Browser, ollamaUrl: string, dataDir?: string): Promise<number> {
  const t0 = performance.now();
  const s = await startServeProcess({ dataDir: dataDir ?? tempDir(cleanup, 'firebrand-bench-'), ollamaUrl });
  if (!dataDir) listening.push(performance.now() - t0);
  try {
    // bypassCSP as in firebrand-ui.ts: the readiness check is a script string.
    const context = await b.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    try {
      const page = await context.newPage();
      await page.goto(s.url);
      await waitInteractive(page);
      return performance.now() - t0;
    } finally {
      await context.close();
    }
  } finally {
    await s.stop();
  }
}

async function floorStart(b: Browser, blankUrl: string): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`node -e '' exited ${code}`))));
  });
  const context = await b.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(blankUrl);
    return performance.now() - t0;
  } finally {
    await context.close();
  }
}

await withCleanup(async (cleanup) => {
  requireBuild();
  const paced = await startPacedServer(BARE_PAGE);
  cleanup.add('paced server', () => paced.close());
  const blank = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>blank</title>'));
  await new Promise<void>((r) => blank.listen(0, '127.0.0.1', () => r()));
  cleanup.add('blank server', () => new Promise((r) => blank.close(r)));
  const blankUrl = `http://127.0.0.1:${(blank.address() as AddressInfo).port}/`;
  const b = await browser(cleanup);

  const history = tempDir(cleanup, 'firebrand-bench-history-');
  copyBigDatabase(HISTORY, history);
  // Warm-up: the OS file cache for node, the app and Chromium's renderer binaries, for both; the history's
  // database file, as a user's is read at every start.
  await floorStart(b, blankUrl);
  await firebrandStart(cleanup, b, paced.url);
  await firebrandStart(cleanup, b, paced.url, history);
  const value: number[] = [];
  const floor: number[] = [];
  const withHistory: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    floor.push(await floorStart(b, blankUrl));
    value.push(await firebrandStart(cleanup, b, paced.url));
    withHistory.push(await firebrandStart(cleanup, b, paced.url, history));
  }
  const v = percentile(value.sort((x, y) => x - y), 50);
  const f = percentile(floor.sort((x, y) => x - y), 50);
  report({
    figure: `start: spawn serve mode to an interactive composer (median of ${RUNS})`,
    value: Math.round(v),
    unit: 'ms',
    floor: Math.round(f),
    ratio: Number((v / f).toFixed(2)),
    goal: '<= 1.5x floor',
    met: v <= 1.5 * f,
    note: `runs ${value.map((x) => x.toFixed(0)).join('/')} vs ${floor.map((x) => x.toFixed(0)).join('/')} ms; serving after ${percentile(listening.slice(1).sort((x, y) => x - y), 50).toFixed(0)} ms`,
  });
  const h = percentile(withHistory.sort((x, y) => x - y), 50);
  report({
    figure: `start with ${HISTORY.conversations.toLocaleString('en-US')} conversations in the history (median of ${RUNS}; floor: the start with none)`,
    value: Math.round(h),
    unit: 'ms',
    floor: Math.round(v),
    ratio: Number((h / v).toFixed(2)),
    goal: '<= 1.25x floor',
    met: h <= 1.25 * v,
    note: `runs ${withHistory.map((x) => x.toFixed(0)).join('/')} ms; ${(HISTORY.conversations * HISTORY.turnsPerConversation).toLocaleString('en-US')} turns`,
  });
});
