/**
 * Issue 15 item 17: a fetched page (up to 40,000 characters) overflowed the 4096-token fallback window, so the
 * next step was refused and the model never answered. Tool results are now fitted to what is left of the window,
 * and what was cut is said to the model (in the result) and to the user (the block's note, shown on the card).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { turnText, type ToolResultBlock, type Turn } from '../../../src/shared/turn';
import { answerReserve, fitToolResults } from '../../../src/main/engine/fit-tool-results';
import { MESSAGE_OVERHEAD_TOKENS } from '../../../src/shared/context-estimate';
import { createServices, type Services } from '../../../src/main/services';
import { ToolRegistry } from '../../../src/main/tools/registry';
import type { Tool } from '../../../src/main/tools/types';
import { ollamaChatStream, TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';

let replay: ReplayServer | undefined;
let services: Services | undefined;
let dir: string | undefined;
afterEach(async () => {
  services?.close();
  await replay?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  services = replay = dir = undefined;
});

const PAGE = Array.from({ length: 1000 }, (_, i) => `Line ${i} of a long page about the sky being blue.`).join('\n');

const bigPage: Tool = {
  schema: { name: 'read_page', description: 'Reads a page', parameters: { type: 'object', properties: {} } },
  needsApproval: false,
  run: () => Promise.resolve({ content: PAGE.slice(0, 40_000), isError: false }),
};

function callLine(): string {
  const call = { model: 'm', created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_page', arguments: {} } }] }, done: false };
  const done = { model: 'm', created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '' }, done_reason: 'stop', done: true, prompt_eval_count: 90 };
  return `${JSON.stringify(call)}\n${JSON.stringify(done)}\n`;
}

const result = (name: string, content: string): ToolResultBlock => ({ type: 'tool_result', toolCallId: name, name, content, isError: false });

describe('tool results and the context window', () => {
  it('a 40,000-character page fits the 4096 fallback window: the next step is sent, and the cut is said', async () => {
    dir = mkdtempSync(join(tmpdir(), 'firebrand-fit-'));
    const base: ReplayRoute[] = [
      { path: '/api/tags', body: TAGS_BODY },
      { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools"]}' },
    ];
    replay = await startReplayServer([...base, { method: 'POST', path: '/api/chat', body: callLine(), chunk: 'lines' }]);
    const server = replay;
    server.setOnRequest((req) => {
      if (req.path === '/api/chat' && req.body.includes('"role":"tool"')) {
        server.setRoutes([...base, { method: 'POST', path: '/api/chat', body: ollamaChatStream(['The sky is blue.'], 'm'), chunk: 'lines' }]);
      }
    });
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, chat: { titles: false, tools: new ToolRegistry([bigPage]) } });
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Why is the sky blue? Read the page.', model: 'm' });
    await expect.poll(() => services?.chat.activeCount, { timeout: 15_000 }).toBe(0);
    const turns = (await services.handlers['conversations:open']({ conversationId: sent.conversationId })).turns;
    expect(turns.map((t) => t.source ?? t.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(turnText(turns[3] as Turn)).toBe('The sky is blue.');
    const fitted = turns[2]?.blocks[0] as ToolResultBlock;
    expect(fitted.content.length).toBeLessThan(40_000);
    expect(fitted.content).toMatch(/\[cut: the first \d+ of 40000 characters, to fit the context window \(4096 tokens\); ask for less to see the rest\]$/);
    const kept = /\[cut: the first (\d+) of/.exec(fitted.content)?.[1] ?? '';
    expect(fitted.note).toBe(`Cut to ${Number(kept).toLocaleString('en-US')} of 40,000 characters to fit the context window (4096 tokens).`);
    expect(PAGE.startsWith(fitted.content.slice(0, Number(kept)))).toBe(true);
    // The request that carried the result fits the window, with room left for the answer.
    const second = JSON.parse(replay.requests.filter((r) => r.path === '/api/chat')[1]?.body ?? '{}') as { options: { num_ctx: number } };
    expect(second.options.num_ctx).toBe(4096);
    expect(replay.requests.filter((r) => r.path === '/api/chat')[1]?.body.length).toBeLessThan((4096 - answerReserve(4096)) * 4);
  });

  it('shares the room fairly: a small result stays whole, the big ones are cut, nothing is cut when all fit', () => {
    const small = result('a', 'x'.repeat(100));
    const big1 = result('b', 'y'.repeat(30_000));
    const big2 = result('c', 'z'.repeat(30_000));
    const out = fitToolResults([small, big1, big2], { window: 8192, used: 2000, ratio: 1 });
    expect(out[0]).toEqual(small);
    expect(out[1]?.content.length).toBe(out[2]?.content.length);
    const total = out.reduce((n, r) => n + r.content.length, 0);
    expect(total).toBeLessThanOrEqual((8192 - 2000 - answerReserve(8192)) * 4);
    expect(total).toBeGreaterThan((8192 - 2000 - answerReserve(8192) - 20) * 4);
    expect(fitToolResults([small], { window: 8192, used: 2000, ratio: 1 })).toEqual([small]);
  });

  it('leaves a result out, saying so, when the window has no room for it', () => {
    const [out] = fitToolResults([result('read_page', 'w'.repeat(5000))], { window: 4096, used: 3100, ratio: 1 });
    expect(out?.content).toBe('[The result of read_page (5000 characters) did not fit in what is left of the context window (4096 tokens), so it was left out. Ask for less, or answer without it.]');
    expect(out?.note).toBe('Left out: all 5,000 characters, to fit the context window (4096 tokens).');
  });

  // Chat audit #1: with the room at 0, a 78-character result was swapped for the 170-character notice, a denial
  // for "did not fit … ask for less", and the next step no longer fit.
  it('keeps a result no larger than the notice, and never replaces a call that did not run', () => {
    const full = { window: 2304, used: 2300, ratio: 1 };
    const time = result('current_datetime', 'Europe/Paris, Saturday 5 December 2026, 06:00 (UTC+01:00), ISO 2026-12-05T06:00');
    const denied: ToolResultBlock = { ...result('read_page', 'The user did not allow read_page for this request. Do not retry it; answer without it.'), isError: true, notRun: true };
    const stopped: ToolResultBlock = { ...result('fetch_url', 'Not run: stopped by the user before this tool ran.'), isError: true, notRun: true };
    expect(fitToolResults([time], full)).toEqual([time]);
    expect(fitToolResults([denied, stopped], full)).toEqual([denied, stopped]);
    // A long result that did not run is still what happened: it is never cut either.
    const longNotRun: ToolResultBlock = { ...result('x', `Not run: ${'why '.repeat(400)}`), isError: true, notRun: true };
    expect(fitToolResults([longNotRun], full)).toEqual([longNotRun]);
    // One character longer than its notice: left out, saying so (the notice is shorter).
    const [out] = fitToolResults([result('y', 'v'.repeat(400))], full);
    expect(out?.content).toMatch(/^\[The result of y \(400 characters\) did not fit/);
    expect(out?.content.length).toBeLessThan(400);
  });

  it('takes what goes whole off the room first: the others share what is left', () => {
    const room = 2000;
    const budget = { window: 8192, used: 8192 - answerReserve(8192) - MESSAGE_OVERHEAD_TOKENS * 3 - room / 4, ratio: 1 };
    const notRun: ToolResultBlock = { ...result('a', `Not run: ${'why '.repeat(398)}`), isError: true, notRun: true };
    const big = result('b', 'z'.repeat(30_000));
    const [first, second] = fitToolResults([notRun, big], budget);
    expect(first).toEqual(notRun);
    expect(notRun.content.length + (second?.content.length ?? 0)).toBeLessThanOrEqual(room);
    expect(second?.note).toMatch(/^Cut to /);
  });
});
