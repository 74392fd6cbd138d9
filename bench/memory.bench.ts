/**
 * Main process memory (issue 20): the resident set (RSS, /proc/PID/status VmRSS) of serve mode's process, the
 * one that is main, with 10,000 conversations / 200,000 turns in its database (bench/lib/big-database.ts), the
 * app open in Chromium with its conversation list shown,
 * - idle: the highest reading over a few seconds once the list is on screen;
 * - streaming: the highest reading while a 5,000-token answer streams at 1,000 tokens/s into a new chat.
 * Floor: the same process with an empty database, doing the same, in the same run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { copyBigDatabase } from './lib/big-database';
import { withCleanup } from './lib/cleanup';
import { browser, openFirebrand, requireBuild, sendInNewChat, serve, tempDir, waitAnswered } from './lib/firebrand-ui';
import { markdownTokens } from './lib/markdown-answer';
import { startPacedServer } from './lib/paced-stream';
import { quick, report } from './lib/report';

const SHAPE = quick ? { conversations: 1_000, turnsPerConversation: 20 } : { conversations: 10_000, turnsPerConversation: 20 };
const TOKENS = quick ? 2_000 : 5_000;
const IDLE_MS = 3_000;
const SAMPLE_MS = 50;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

/** The highest RSS of `pid` while `work` runs, sampled every SAMPLE_MS. */
async function peakRss(pid: number, work: () => Promise<unknown>): Promise<number> {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), SAMPLE_MS);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, rssMb(pid));
}

await withCleanup(async (cleanup) => {
  requireBuild();
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc (Linux)');
  const paced = await startPacedServer('');
  cleanup.add('paced server', () => paced.close());
  const big = join(tempDir(cleanup, 'firebrand-bench-memory-'), 'data');
  const { builtS } = copyBigDatabase(SHAPE, big);
  const empty = join(tempDir(cleanup, 'firebrand-bench-memory-'), 'data');
  const b = await browser(cleanup);

  const measure = async (dataDir: string, listed: number) => {
    const s = await serve(cleanup, dataDir, paced.url);
    const pid = s.child.pid!;
    const page: Page = await openFirebrand(b, s.url);
    if (listed > 0) await page.locator('[data-testid="conversation-item"]').first().waitFor({ timeout: 120_000 });
    const idle = await peakRss(pid, () => new Promise((r) => setTimeout(r, IDLE_MS)));
    paced.setPlan({ tokens: markdownTokens(TOKENS), rate: 1_000, firstDelayMs: 200 });
    const streaming = await peakRss(pid, async () => {
      await sendInNewChat(page, 'write a long answer');
      await waitAnswered(page, 120_000);
    });
    await page.close();
    await s.stop();
    return { idle, streaming };
  };

  // Warm-up: the browser's and the page's first start, on the empty database.
  await measure(empty, 0);
  const floor = await measure(join(tempDir(cleanup, 'firebrand-bench-memory-'), 'data'), 0);
  const value = await measure(big, SHAPE.conversations);
  const scale = `${SHAPE.conversations.toLocaleString('en-US')} conversations / ${(SHAPE.conversations * SHAPE.turnsPerConversation).toLocaleString('en-US')} turns`;
  for (const phase of ['idle', 'streaming'] as const) {
    const v = value[phase];
    const f = floor[phase];
    report({
      figure: `main process RSS, ${scale}, ${phase === 'idle' ? 'idle with the list shown' : `streaming ${TOKENS.toLocaleString('en-US')} tokens at 1,000 tokens/s`}`,
      value: Number(v.toFixed(1)),
      unit: 'MB',
      floor: Number(f.toFixed(1)),
      ratio: Number((v / f).toFixed(2)),
      goal: '<= floor (empty database) + 64 MB',
      met: v <= f + 64,
      ...(phase === 'idle' && builtS !== null ? { note: `database built in ${builtS.toFixed(0)} s (cached for later runs)` } : {}),
    });
  }
});
