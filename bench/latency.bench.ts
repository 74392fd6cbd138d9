/**
 * Token-to-screen latency in serve mode (issue 8, item 2): a paced Ollama writes stamped tokens at 100 and
 * 1,000 tokens/s; each token's write time (bench clock) is compared with the paint that first shows it (page
 * clock, offset measured). Floor: a bare page reading the same schedule over a WebSocket into a `<pre>`.
 * Floor and Firebrand alternate in rounds so both sample the same load on a shared machine.
 */
import type { Page } from 'playwright-core';
import { withCleanup } from './lib/cleanup';
import { ANSWER, browser, openFirebrand, requireBuild, sendInNewChat, serve, tempDir, waitAnswered } from './lib/firebrand-ui';
import { startPacedServer, BARE_PAGE, type PacedServer } from './lib/paced-stream';
import { armProbe, clockOffset, installProbe, latencies, readProbe, waitPainted } from './lib/page-probe';
import { percentile, quick, report } from './lib/report';

const ROUNDS = quick ? 2 : 4;
const RUNS = [
  { rate: 100, tokens: quick ? 150 : 1_000 },
  { rate: 1_000, tokens: quick ? 1_000 : 5_000 },
];
// A real server evaluates the prompt before its first token (tens to hundreds of ms). Without this pause the
// first tokens would race the send's own round trip and mount of the new turn, which is not what this measures.
const PROMPT_MS = 200;
let tagCounter = 0;

/**
 * Words stamped with their sequence number, in paragraphs of 40 words as answers come; a fresh tag per stream
 * so an older answer cannot match. (One endless paragraph is one markdown block, re-rendered whole each frame:
 * see the report's note on long blocks.)
 */
function stamped(count: number): { tag: string; tokens: string[] } {
  const tag = `k${++tagCounter}`;
  const sep = (i: number) => (i === 0 ? '' : i % 40 === 0 ? '\n\n' : ' ');
  return { tag, tokens: Array.from({ length: count }, (_, i) => `${sep(i)}${tag}x${i}`) };
}

async function measure(page: Page, paced: PacedServer, rate: number, count: number, target: string, start: () => Promise<unknown>): Promise<number[]> {
  const { tag, tokens } = stamped(count);
  paced.setPlan({ tokens, rate, firstDelayMs: PROMPT_MS });
  const offset = await clockOffset(page);
  await armProbe(page, target, tag);
  const written = paced.nextStream();
  await start();
  const writes = await written;
  await waitPainted(page, count - 1, 10_000);
  const lat = latencies(writes, await readProbe(page), offset);
  if (lat.length < count * 0.9) throw new Error(`only ${lat.length} of ${count} tokens were seen painted (target ${target})`);
  return lat;
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
  const viaApp = async (rate: number, n: number) => {
    const lat = await measure(app, paced, rate, n, ANSWER, () => sendInNewChat(app, `stream at ${rate}`));
    await waitAnswered(app);
    return lat;
  };
  const viaBare = (rate: number, n: number) => measure(bare, paced, rate, n, 'pre', () => bare.evaluate('window.__go()'));

  // Warm-up: the first answer pays for JIT and lazy chunks, which no later token does.
  await viaApp(1_000, 200);
  await viaBare(1_000, 200);

  for (const { rate, tokens } of RUNS) {
    const value: number[] = [];
    const floor: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      floor.push(...(await viaBare(rate, Math.ceil(tokens / ROUNDS))));
      value.push(...(await viaApp(rate, Math.ceil(tokens / ROUNDS))));
    }
    value.sort((a, b) => a - b);
    floor.sort((a, b) => a - b);
    for (const p of [50, 99]) {
      const v = percentile(value, p);
      const f = percentile(floor, p);
      report({
        figure: `token-to-screen p${p} at ${rate.toLocaleString('en-US')} tokens/s (${tokens} tokens)`,
        value: Number(v.toFixed(1)),
        unit: 'ms',
        floor: Number(f.toFixed(1)),
        ratio: Number((v / f).toFixed(2)),
        ...(p === 99 ? { goal: '<= 1.2x floor and < 50 ms', met: v <= 1.2 * f && v < 50 } : {}),
      });
    }
  }
});
