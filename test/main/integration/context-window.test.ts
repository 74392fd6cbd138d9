/**
 * Gap 1: the window an Ollama request carries when nothing names one is the user's kept window, else the GPU
 * recommendation, else 4096 with the reason; never left to Ollama's silent default. The meter's IPC call says
 * the same number and where it came from.
 */
import { describe, expect, it } from 'vitest';
import { ContextWindowResolver } from '../../../src/main/models/context-window';
import type { ContextAdvice } from '../../../src/shared/models';
import { chatBodies, fixture, ollama, servicesSuite, settle, tagsWithLlama31 } from './helpers';

const suite = servicesSuite();

describe('the context window sent to Ollama', () => {
  it('is the GPU recommendation when the user kept none (llama3.1:8b on 12 GB), and the meter says so', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/show', body: fixture('ollama-models/show-llama3.1-8b.json') }], tagsWithLlama31()));
    const t = suite.start();
    // A send waits at most 2.5 s for the recommendation (then uses the fallback for that message): on a busy
    // machine the first answer may come before it is worked out, so wait for the recommendation itself.
    await expect.poll(async () => (await t.services.handlers['models:context-window']({ model: 'llama3.1:8b' })).source).toBe('recommended');
    const choice = await t.services.handlers['models:context-window']({ model: 'llama3.1:8b' });
    expect(choice.source).toBe('recommended');
    // The worked example: about 43,000 tokens fit.
    expect(choice.contextWindow).toBeGreaterThan(40_000);
    expect(choice.contextWindow).toBeLessThan(46_000);
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'llama3.1:8b' });
    await settle(t.services, sent.conversationId);
    expect(chatBodies(suite.replay)[0]?.options).toMatchObject({ num_ctx: choice.contextWindow });
  });

  it('is the window the user kept for the model, which wins over the recommendation', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/show', body: fixture('ollama-models/show-llama3.1-8b.json') }], tagsWithLlama31()));
    const t = suite.start();
    await t.services.handlers['models:set-context']({ model: 'llama3.1:8b', contextWindow: 12_288, source: 'user' });
    expect(await t.services.handlers['models:context-window']({ model: 'llama3.1:8b' })).toEqual({ contextWindow: 12_288, source: 'user', reason: null });
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'llama3.1:8b' });
    await settle(t.services, sent.conversationId);
    expect(chatBodies(suite.replay)[0]?.options).toMatchObject({ num_ctx: 12_288 });
  });

  it('falls back to 4096 with the reason when the server cannot describe the model; the send still goes', async () => {
    suite.replay.setRoutes(ollama([{ method: 'POST', path: '/api/show', status: 404, body: '{"error":"model not found"}' }]));
    const t = suite.start();
    const choice = await t.services.handlers['models:context-window']({ model: 'llama3.2:3b' });
    expect(choice).toMatchObject({ contextWindow: 4096, source: 'fallback' });
    expect(choice.reason).toMatch(/not found|No recommendation/);
    const sent = await t.services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'llama3.2:3b' });
    const turns = await settle(t.services, sent.conversationId);
    expect(turns.at(-1)?.status).toBe('done');
    expect(chatBodies(suite.replay)[0]).toMatchObject({ options: { num_ctx: 4096 }, truncate: false });
  });
});

describe('ContextWindowResolver', () => {
  const advice = (tokens: number): ContextAdvice => ({
    model: 'm',
    gpu: { source: 'override', devices: [], usableBytes: 1, notes: [] },
    weightsBytes: 1,
    stored: null,
    reason: null,
    recommendation: { fits: true, contextTokens: tokens, kvBytesPerToken: 1, lines: [], message: `${tokens} tokens fit on the GPU.` },
  });

  it('never makes a send wait long: a slow recommendation yields the fallback now and is used once it is known', async () => {
    let release: (a: ContextAdvice) => void = () => {};
    let asked = 0;
    const resolver = new ContextWindowResolver({
      stored: () => null,
      recommend: () => {
        asked++;
        return new Promise((r) => (release = r));
      },
      waitMs: 30,
    });
    const first = await resolver.resolve('http://x', 'm');
    expect(first).toMatchObject({ contextWindow: 4096, source: 'fallback' });
    expect(first.reason).toMatch(/still being worked out/);
    release(advice(32_768));
    await expect.poll(() => resolver.resolve('http://x', 'm')).toMatchObject({ contextWindow: 32_768, source: 'recommended' });
    expect(asked).toBe(1);
  });

  it('lets the Models screen wait for a slow recommendation instead of showing the default for good', async () => {
    let release: (a: ContextAdvice) => void = () => {};
    const resolver = new ContextWindowResolver({ stored: () => null, recommend: () => new Promise((r) => (release = r)), waitMs: 30 });
    const waiting = resolver.resolve('http://x', 'm', { wait: true });
    // A send asked at the same time does not wait: it takes the default now.
    expect(await resolver.resolve('http://x', 'm')).toMatchObject({ source: 'fallback' });
    release(advice(32_768));
    expect(await waiting).toMatchObject({ contextWindow: 32_768, source: 'recommended' });
  });

  it('works a failed recommendation out again for the Models screen, while sends keep the fallback for a while', async () => {
    let fail = true;
    let asked = 0;
    const resolver = new ContextWindowResolver({
      stored: () => null,
      recommend: () => {
        asked++;
        return fail ? Promise.reject(new Error('server busy')) : Promise.resolve(advice(16_384));
      },
    });
    expect(await resolver.resolve('http://x', 'm')).toMatchObject({ source: 'fallback' });
    fail = false;
    await expect.poll(() => resolver.resolve('http://x', 'm', { wait: true })).toMatchObject({ contextWindow: 16_384, source: 'recommended' });
    expect(await resolver.resolve('http://x', 'm')).toMatchObject({ source: 'recommended' });
    expect(asked).toBe(2);
  });

  it('turns a failed or non-fitting recommendation into the fallback with its reason, and never throws', async () => {
    const failing = new ContextWindowResolver({ stored: () => null, recommend: () => Promise.reject(new Error('GPU probe exploded')) });
    expect(await failing.resolve('http://x', 'm')).toMatchObject({ contextWindow: 4096, source: 'fallback', reason: expect.stringContaining('GPU probe exploded') as unknown });
    const tooBig = advice(0);
    tooBig.recommendation = { ...tooBig.recommendation!, fits: false, message: 'Does not fit on the GPU.' };
    const noFit = new ContextWindowResolver({ stored: () => null, recommend: () => Promise.resolve(tooBig) });
    expect(await noFit.resolve('http://x', 'm')).toEqual({ contextWindow: 4096, source: 'fallback', reason: 'Does not fit on the GPU.' });
  });
});
