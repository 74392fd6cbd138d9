/**
 * A 1 MB paste into the composer (issue 9's bad input; issue 12 moved its one-second budget here from the e2e
 * test, which now checks only that the paste arrives intact and the composer stays usable). A real paste:
 * the text on the clipboard, then Ctrl+V; then 4 typed characters. Figures: the paste landing, the typed
 * characters showing, and the context meter counting them. Floor: the same paste and typing in a bare
 * `<textarea>` on the same origin, in the same browser, alternating rounds so both sample the same load.
 */
import type { Browser, Page } from 'playwright-core';
import { ollamaRoutes } from '../test/replay-server/ollama-wire';
import { startReplayServer } from '../test/replay-server/replay-server';
import { withCleanup } from './lib/cleanup';
import { browser, requireBuild, serve, tempDir, waitInteractive } from './lib/firebrand-ui';
import { percentile, quick, report } from './lib/report';

const ROUNDS = quick ? 1 : 3;
const ONE_MB = 1024 * 1024;
const INPUT = '[data-testid="composer-input"]';
const METER = '[data-testid="context-meter"]';
const FLOOR_PATH = '/__bench-floor';

const line = 'The quick brown fox jumps over the lazy dog; 0123456789.\n';
const TEXT = line.repeat(Math.ceil(ONE_MB / line.length)).slice(0, ONE_MB);

interface Round {
  pasteMs: number;
  echoMs: number;
  meterMs?: number;
}

const estimate = (page: Page) => page.evaluate(`Number(document.querySelector('${METER}').getAttribute('data-estimate'))`) as Promise<number>;

async function waitFor(page: Page, expression: string): Promise<void> {
  await page.waitForFunction(expression, undefined, { polling: 'raf', timeout: 120_000 });
}

async function waitEstimateAbove(page: Page, floor: number): Promise<void> {
  await waitFor(page, `Number(document.querySelector('${METER}').getAttribute('data-estimate')) > ${floor}`);
}

/** One paste and 4 typed characters into `input`; with a meter, also until it counted each. */
async function round(page: Page, input: string, withMeter: boolean): Promise<Round> {
  await page.locator(input).fill('');
  await page.locator(input).click();
  const before = withMeter ? await estimate(page) : 0;
  await page.evaluate((t) => navigator.clipboard.writeText(t), TEXT);
  const pasteStart = performance.now();
  await page.keyboard.press('Control+V');
  await waitFor(page, `document.querySelector('${input}').value.length === ${ONE_MB}`);
  const pasteMs = performance.now() - pasteStart;
  let afterPaste = 0;
  if (withMeter) {
    await waitEstimateAbove(page, before + ONE_MB / 8);
    afterPaste = await estimate(page);
  }
  const typeStart = performance.now();
  await page.keyboard.type('Zebr');
  await waitFor(page, `document.querySelector('${input}').value.endsWith('Zebr')`);
  const echoMs = performance.now() - typeStart;
  if (!withMeter) return { pasteMs, echoMs };
  await waitEstimateAbove(page, afterPaste);
  return { pasteMs, echoMs, meterMs: performance.now() - typeStart };
}

async function pages(b: Browser, url: string, origin: string): Promise<{ app: Page; bare: Page }> {
  // bypassCSP as in firebrand-ui.ts: the waits are script strings.
  const context = await b.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const app = await context.newPage();
  await app.goto(url);
  await waitInteractive(app);
  const bare = await context.newPage();
  // Same origin, so the clipboard permission and the secure context are the same as the app's.
  await bare.route(`${origin}${FLOOR_PATH}`, (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><textarea data-testid="composer-input" rows="6" cols="80"></textarea>' }));
  await bare.goto(`${origin}${FLOOR_PATH}`);
  return { app, bare };
}

await withCleanup(async (cleanup) => {
  requireBuild();
  const replay = await startReplayServer(ollamaRoutes(['Hi']));
  cleanup.add('replay server', () => replay.close());
  const b = await browser(cleanup);
  const s = await serve(cleanup, tempDir(cleanup, 'firebrand-bench-paste-'), replay.url);
  const { app, bare } = await pages(b, s.url, s.origin);

  // Warm-up: both pages have seen a megabyte paste once.
  await round(bare, INPUT, false);
  await round(app, INPUT, true);
  const value: Round[] = [];
  const floor: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    floor.push(await round(bare, INPUT, false));
    value.push(await round(app, INPUT, true));
  }
  const median = (xs: number[]) => percentile([...xs].sort((x, y) => x - y), 50);
  const figure = (name: string, v: number, f: number, goalMs?: number) =>
    report({
      figure: `1 MB paste: ${name}`,
      value: Math.round(v),
      unit: 'ms',
      floor: Math.round(f),
      ratio: Number((v / f).toFixed(2)),
      ...(goalMs !== undefined ? { goal: `< ${goalMs.toLocaleString('en-US')} ms`, met: v < goalMs } : {}),
    });
  const echoFloor = median(floor.map((r) => r.echoMs));
  figure('lands in the composer', median(value.map((r) => r.pasteMs)), median(floor.map((r) => r.pasteMs)));
  figure('4 typed characters shown', median(value.map((r) => r.echoMs)), echoFloor, 1_000);
  figure('context meter counts them', median(value.map((r) => r.meterMs ?? NaN)), echoFloor, 1_000);
});
