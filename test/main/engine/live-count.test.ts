/**
 * Main's running count of an answer's tokens (engine/chunk-count.ts), sent to the page in the turn's timing a few
 * times a second while it streams. The footer showed the characters written ÷ 4 ("~ 120 tokens"); main sees the
 * wire, where one streamed chunk is about one token: a chunk of text, reasoning or a tool call's later arguments
 * counts one, a role-only, empty, finish or usage chunk none; a dialect whose chunks carry several tokens (Anthropic)
 * and the chunk that starts a tool call (its name and first arguments) are counted by their characters. The count is the whole answer's (a tool call, then more text), and it is saved
 * with the answer, so a stopped one keeps it after a reload.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { StreamPart, TimingPart } from '../../../src/shared/parts';
import { turnText } from '../../../src/shared/turn';
import { turnTimingMeta } from '../../../src/shared/turn-timing';
import type { Services } from '../../../src/main/services';
import { CASES, conformance, script, type DialectCase } from './helpers';
import { servicesOnReplay } from './services-on-replay';

const app = servicesOnReplay('firebrand-live-count-');
let services: Services;
const replay = () => app.replay;
const events = () => app.events();
const { settle } = app;

async function start(c: Pick<DialectCase, 'kind'> & Partial<DialectCase>): Promise<string | undefined> {
  services = app.start({ chat: { ...(c.tools ? { tools: c.tools } : {}) } });
  if (c.kind === 'ollama') return undefined;
  return (await services.handlers['connections:save']({ kind: c.kind, label: c.kind, baseUrl: replay().url, apiKey: 'test-key' })).id;
}

/** The running counts the page was sent (for one step's turn), in order. */
const counts = (turnId?: string) =>
  events()
    .flatMap((e) => (e.channel === 'chat:turn-parts' && (turnId === undefined || (e.payload as { turnId: string }).turnId === turnId) ? (e.payload as { parts: StreamPart[] }).parts : []))
    .flatMap((p) => (p.type === 'timing' && (p as TimingPart).timing.tokens !== undefined ? [(p as TimingPart).timing.tokens!] : []));
const dbPath = () => join(app.dir, 'firebrand.db');
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `);
/** What main counts for `tokens` streamed one a chunk: one each, or their characters ÷ 4 where a chunk holds several. */
const expected = (c: DialectCase, tokens: string[]) => (c.kind === 'anthropic' ? Math.round(tokens.join('').length / 4) : tokens.length);

describe.each(CASES)('the running count over $kind', (c) => {
  it('counts the chunks that carried text, not the role-only, finish and usage ones, and reaches the page a few times a second', async () => {
    const connectionId = await start(c);
    const tokens = words(120);
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.text(tokens), delayMs: 4 }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Count', model: 'm', ...(connectionId ? { connectionId } : {}) });
    const turns = await settle(sent.conversationId);
    const answer = turns.at(-1)!;
    expect(answer.status).toBe('done');
    expect(turnTimingMeta(answer).tokens).toBe(expected(c, tokens));
    // It grew as the answer streamed, and went in far fewer sends than chunks: not per token.
    expect(counts().at(-1)).toBe(expected(c, tokens));
    expect(counts().length).toBeGreaterThan(1);
    expect(counts().length).toBeLessThan(tokens.length / 4);
    expect(counts()).toEqual([...counts()].sort((a, b) => a - b));
  });

  it('a stream that pauses still shows where it got to: the count held back by the interval goes on its own', async () => {
    const connectionId = await start(c);
    const tokens = words(60);
    // Held after 30 lines that come 2 ms apart: the last counts came within the interval of the one sent before.
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.text(tokens), delayMs: 2, holdAfterChunks: 30 }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Count', model: 'm', ...(connectionId ? { connectionId } : {}) });
    await expect.poll(() => replay().held).toBe(1);
    // What came before the hold, as main holds it (a page opening the chat now reads it): its count reaches the page
    // with no chunk after it to carry it.
    const came = async () => {
      const turn = (await services.handlers['conversations:open']({ conversationId: sent.conversationId })).turns.find((t) => t.id === sent.assistantTurn.id)!;
      return expected(c, turnText(turn).split(/(?<= )/).filter((w) => w !== ''));
    };
    await expect.poll(async () => counts().at(-1) === (await came()) && (await came()) >= 5).toBe(true);
    replay().release();
    await settle(sent.conversationId);
  });

  it('covers the whole answer: after a tool call, the text step counts on from the first step', async () => {
    const connectionId = await start(c);
    const tokens = words(30);
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.toolCall }, { body: c.text(tokens), delayMs: 4 }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', ...(connectionId ? { connectionId } : {}) });
    const turns = await settle(sent.conversationId);
    const steps = turns.filter((t) => t.role === 'assistant');
    expect(steps).toHaveLength(2);
    // The first step's tokens: the server's count where it sent one, main's where not.
    const first = steps[0]!.usage?.outputTokens ?? turnTimingMeta(steps[0]!).tokens ?? 0;
    expect(first).toBeGreaterThan(0);
    expect(turnTimingMeta(steps[1]!).tokens).toBe(first + expected(c, tokens));
    // Live too: the second step's counts, from its first, held the first step's; the end jumped nowhere.
    const live = counts(steps[1]!.id);
    expect(live[0]).toBeGreaterThanOrEqual(first);
    expect(live[0]).toBeLessThanOrEqual(first + 1);
    expect(live.at(-1)).toBe(first + expected(c, tokens));
  });

  it('a stopped answer keeps its count, saved with it for a reload', async () => {
    const connectionId = await start(c);
    const tokens = words(200);
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.text(tokens), delayMs: 15, holdAfterChunks: 40 }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Count', model: 'm', ...(connectionId ? { connectionId } : {}) });
    await expect.poll(() => replay().held).toBe(1);
    expect(await services.handlers['chat:stop']({ turnId: sent.assistantTurn.id })).toEqual({ stopped: true });
    const stopped = (await settle(sent.conversationId)).at(-1)!;
    expect(stopped.status).toBe('aborted');
    // No count from the server (Anthropic's message_start says 1 before a word: a placeholder, not its count, which
    // the footer showed as "1 token"): main's, of the words that came.
    expect(stopped.usage?.outputTokens).toBeUndefined();
    const came = turnText(stopped).split(' ').filter((w) => w !== '');
    const kept = turnTimingMeta(stopped).tokens;
    expect(kept).toBe(c.kind === 'anthropic' ? Math.round(turnText(stopped).length / 4) : came.length);
    expect(counts().at(-1)).toBe(kept);
  });
});

describe('the running count of a tool call on llama-server', () => {
  it('counts each argument chunk after the call started as a token, as a text chunk', async () => {
    const c = CASES.find((x) => x.kind === 'llama-server')!;
    const connectionId = await start(c);
    // As llama-server streams a call (c-toolcall-stream-deepseek.sse): the name with the first fragment, then one
    // short JSON token a chunk. A step the user stopped while the model wrote a long argument.
    const chunk = (delta: object) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
    const args = ['"', 'city', '":', ' "', ...Array.from({ length: 40 }, () => 'Pa')];
    const body = chunk({ role: 'assistant', content: null }) + chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{' } }] }) + args.map((a) => chunk({ tool_calls: [{ index: 0, function: { arguments: a } }] })).join('');
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body, chunk: 'lines', holdAfterChunks: 2 * (args.length + 2) }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', ...(connectionId ? { connectionId } : {}) });
    await expect.poll(() => replay().held).toBe(1);
    // The name and the first fragment ("get_weather{": 12 characters, 3 tokens), then one a chunk.
    await expect.poll(() => counts().at(-1)).toBe(3 + args.length);
    expect(await services.handlers['chat:stop']({ turnId: sent.assistantTurn.id })).toEqual({ stopped: true });
    replay().release();
    const stopped = (await settle(sent.conversationId)).at(-1)!;
    expect(turnTimingMeta(stopped).tokens).toBe(3 + args.length);
  });
});

describe('the running count held back by the interval', () => {
  it('still goes where its timer fires before main’s clock says it is due (the timer is armed again)', async () => {
    // Main's clock runs at half the timers' pace: each timer fires when, by main's clock, half its wait is gone.
    const real = Date.now.bind(Date);
    const t0 = real();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => t0 + Math.floor((real() - t0) / 2));
    try {
      const c = CASES.find((x) => x.kind === 'ollama')!;
      await start(c);
      script(replay(), dbPath(), c.probes, c.chatPath, [{ body: c.text(words(60)), delayMs: 2, holdAfterChunks: 12 }]);
      await services.handlers['chat:send']({ conversationId: null, text: 'Count', model: 'm' });
      await expect.poll(() => replay().held).toBe(1);
      await expect.poll(() => counts().at(-1), { timeout: 5_000 }).toBe(12);
    } finally {
      clock.mockRestore();
    }
  });
});

describe('the running count over recorded streams', () => {
  // Real captures: llama-server sends one chunk a token; its count at the end is within a few of main's: what it
  // never streams (the end-of-generation token; with --reasoning-format deepseek the think tags and the blank line
  // after them, which it parses away: 9 chunks for its 13) is not counted until its own count replaces main's.
  it.each(['a-plain-stream-deepseek.sse', 'b-reasoning-stream-deepseek.sse', 'b-reasoning-stream-none.sse', 'stream-options-usage-stream-deepseek.sse'])(
    'llama-server %s: about the server’s own count',
    async (name) => {
      const c = CASES.find((x) => x.kind === 'llama-server')!;
      const connectionId = await start(c);
      const body = conformance(name);
      script(replay(), dbPath(), c.probes, c.chatPath, [{ body }]);
      const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'm', ...(connectionId ? { connectionId } : {}) });
      const answer = (await settle(sent.conversationId)).at(-1)!;
      const server = answer.usage?.outputTokens;
      expect(server).toBeGreaterThan(0);
      expect(Math.abs(turnTimingMeta(answer).tokens! - server!)).toBeLessThanOrEqual(4);
    },
  );

  // The call's first tokens (its name, the JSON around it) come as one fragment with the name, each later argument
  // token as a chunk of its own: counted as characters ÷ 4 with no name, the step was 4 for the server's 10.
  it('llama-server c-toolcall-stream-deepseek.sse: a step that called a tool, about the server’s own count', async () => {
    const c = CASES.find((x) => x.kind === 'llama-server')!;
    const connectionId = await start(c);
    script(replay(), dbPath(), c.probes, c.chatPath, [{ body: conformance('c-toolcall-stream-deepseek.sse') }, { body: c.text(words(3)) }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', ...(connectionId ? { connectionId } : {}) });
    const call = (await settle(sent.conversationId)).find((t) => t.role === 'assistant')!;
    expect(call.blocks.some((b) => b.type === 'tool_call')).toBe(true);
    const server = call.usage?.outputTokens;
    expect(server).toBe(10);
    expect(Math.abs(turnTimingMeta(call).tokens! - server!)).toBeLessThanOrEqual(4);
  });
});
