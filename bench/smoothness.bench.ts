/**
 * Long answer smoothness (issue 8, item 3): a long markdown answer (code blocks, tables, lists) streamed at
 * 1,000 tokens/s into Firebrand in Chromium: main-thread tasks over 50 ms (PerformanceObserver 'longtask';
 * goal zero) and the share of frames missed (rAF intervals over 1.5 frames). Floor: the bare page appending the
 * same stream to a `<pre>`, measured the same way in the same run: what this machine drops doing nothing.
 */
import type { Page } from 'playwright-core';
import { withCleanup } from './lib/cleanup';
import { browser, openFirebrand, requireBuild, sendInNewChat, serve, tempDir, waitAnswered } from './lib/firebrand-ui';
import { markdownTokens } from './lib/markdown-answer';
import { startPacedServer, BARE_PAGE, type PacedServer } from './lib/paced-stream';
import { installProbe, missedFrameShare, readProbe, recordFrames, type ProbeResult } from './lib/page-probe';
import { quick, report } from './lib/report';

const TOKENS = quick ? 3_000 : 20_000;
const RATE = 1_000;

async function stream(page: Page, paced: PacedServer, tokens: string[], start: () => Promise<unknown>, settle: () => Promise<void>): Promise<ProbeResult> {
  paced.setPlan({ tokens, rate: RATE, firstDelayMs: 200 });
  await recordFrames(page);
  const written = paced.nextStream();
  await start();
  await written;
  await settle();
  return readProbe(page);
}

await withCleanup(async (cleanup) => {
  requireBuild();
  const paced = await startPacedServer(BARE_PAGE);
  cleanup.add('paced server', () => paced.close());
  const b = await browser(cleanup);
  const s = await serve(cleanup, tempDir(cleanup, 'firebrand-bench-'), paced.url);
  const app = await openFirebrand(b, s.url);
  await installProbe(app);
  const bare = await b.newPage({ viewport: { width: 1280, height: 800 } });
  await bare.goto(`${paced.url}/bare`);
  await bare.evaluate('window.__ready');
  await installProbe(bare);
  const tokens = markdownTokens(TOKENS);
  const settleBare = () => new Promise<void>((r) => setTimeout(r, 200));

  // Warm-up on a short answer, so JIT and lazy chunks are not counted against the long one.
  await stream(app, paced, markdownTokens(300), () => sendInNewChat(app, 'warm up'), () => waitAnswered(app));
  const floor = await stream(bare, paced, tokens, () => bare.evaluate('window.__go()'), settleBare);
  const value = await stream(app, paced, tokens, () => sendInNewChat(app, 'write a long answer'), () => waitAnswered(app, 120_000));
  const text = await app.locator('[data-testid="turn"][data-role="assistant"]').last().innerText();
  if (!text.includes('Step') || !text.includes('depth')) throw new Error('the long answer did not render');

  const label = `${TOKENS.toLocaleString('en-US')}-token markdown answer at 1,000 tokens/s`;
  report({
    figure: `long tasks > 50 ms, ${label}`,
    value: value.longtasks.length,
    unit: 'tasks',
    floor: floor.longtasks.length,
    goal: '0',
    met: value.longtasks.length === 0,
    // Where in the recording (send to answered) each one fell: the send and the end are the app's own work.
    note:
      value.longtasks.length > 0
        ? `longest ${Math.max(...value.longtasks).toFixed(0)} ms; ${value.longtasks.map((d, i) => `${d.toFixed(0)} ms at ${((value.longtaskAt[i] ?? 0) / 1000).toFixed(2)} s`).join(', ')} of ${(value.elapsed / 1000).toFixed(2)} s`
        : '',
  });
  const share = missedFrameShare(value.frames);
  const floorShare = missedFrameShare(floor.frames);
  report({
    figure: `frames missed, ${label}`,
    value: Number((share * 100).toFixed(1)),
    unit: '%',
    floor: Number((floorShare * 100).toFixed(1)),
    ratio: floorShare > 0 ? Number((share / floorShare).toFixed(2)) : undefined,
    goal: '<= 5 %',
    met: share <= 0.05,
    note: `${value.frames.length} frames measured (floor ${floor.frames.length})`,
  });
});
