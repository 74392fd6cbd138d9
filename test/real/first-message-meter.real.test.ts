/**
 * Context audit: a new chat's first message was refused "too long for the window" after the meter said it fit. The
 * meter adds the draft to main's measure as characters scaled by the ratio learned from the server's counts, and
 * that ratio was learned only at the first send: these byte-fallback tokenizers cost ~5x the character estimate,
 * so the first draft was counted ×1. The meter's arithmetic here is the composer's (Composer.tsx: the measure plus
 * the draft's estimate times `estimateRatio`), against a real llama-server that counts with its own tokenizer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { estimateTokens, fitsWindow, measureTurns } from '../../src/shared/context-estimate';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { send, settle, startApp, type RealApp } from './support/app';
import { ServerPool } from './support/pool';

const pool = new ServerPool();
const apps: RealApp[] = [];
afterAll(async () => {
  for (const a of apps) a.close();
  await pool.stopAll();
});

/** ~3,600 tokens with these tokenizers, ~820 by the character estimate: with the tool definitions, over 4,096. */
const WIDE_MESSAGE = 'abcd '.repeat(650);

/** What the composer's meter says of `draft` in a new chat before anything was sent: tokens and window. */
async function meterOf(a: RealApp, draft: string): Promise<{ estimate: number; window: number | null }> {
  const measured = await a.services.handlers['context:measure']({ conversationId: null, model: a.model, connectionId: a.connectionId });
  const choice = await a.services.handlers['models:context-window']({ model: a.model, connectionId: a.connectionId });
  const ratio = choice.estimateRatio ?? 1;
  const draftTokens = Math.ceil(estimateTokens(measureTurns([{ blocks: [{ type: 'text', text: draft }] }])) * ratio);
  return { estimate: measured.tokens + draftTokens, window: choice.contextWindow };
}

/**
 * What the composer's meter says once main counted the draft (Composer.tsx: the measure plus main's count of the
 * draft's text where it gave one, else the estimate times `estimateRatio`).
 */
async function countedMeterOf(a: RealApp, draft: string): Promise<{ estimate: number; window: number | null; byRatio: number }> {
  const measured = await a.services.handlers['context:measure']({ conversationId: null, model: a.model, connectionId: a.connectionId, draft });
  const choice = await a.services.handlers['models:context-window']({ model: a.model, connectionId: a.connectionId });
  const byRatio = Math.ceil(estimateTokens(measureTurns([{ blocks: [{ type: 'text', text: draft }] }])) * (choice.estimateRatio ?? 1));
  expect(measured.draft?.text).toBe(draft);
  return { estimate: measured.tokens + measured.draft!.tokens, window: choice.contextWindow, byRatio: measured.tokens + byRatio };
}

/** 800 characters of three UTF-8 bytes each: ~2,400 byte tokens, where the character estimate says ~200. */
const CJK_MESSAGE = '山'.repeat(800);

describe('the meter before a new chat’s first message', () => {
  // A ratio learned from the tool definitions (~7 tokens per estimated token) is far from this text's (~12): scaled
  // by it, the meter still said "fits" of a message the server then counted over the window.
  it('counts the draft’s own text where the server counts: a text unlike the tool definitions is said too long, as it is refused', async () => {
    const a = await startApp((await pool.get(SCRIPTS.plain, { ctx: 4096 })).url);
    apps.push(a);
    const meter = await countedMeterOf(a, CJK_MESSAGE);
    expect(fitsWindow(meter.byRatio, 4096)).toBe(true);
    expect(fitsWindow(meter.estimate, meter.window)).toBe(false);
    const refused = send(a, CJK_MESSAGE);
    const card = (await settle(a, refused.conversationId)).at(-1);
    expect(card).toMatchObject({ role: 'system', source: 'context-refused', meta: { counted: 'server' } });
    // The meter's number is the server's count of the request the send made.
    expect(meter.estimate).toBe(card!.meta['estimate']);

    // And one that fits is said to fit, and is answered.
    const short = await countedMeterOf(a, '山'.repeat(100));
    expect(fitsWindow(short.estimate, short.window)).toBe(true);
    const answered = send(a, '山'.repeat(100));
    expect((await settle(a, answered.conversationId)).at(-1)).toMatchObject({ role: 'assistant', status: 'done' });
  });

  it('says a first message is too long when the server then refuses it, and fits when it is answered', async () => {
    const a = await startApp((await pool.get(SCRIPTS.plain, { ctx: 4096 })).url);
    apps.push(a);
    const wide = await meterOf(a, WIDE_MESSAGE);
    expect(wide.window).toBe(4096);
    // Told "too long" before Send, as the preflight then says it.
    expect(fitsWindow(wide.estimate, wide.window)).toBe(false);
    const refused = send(a, WIDE_MESSAGE);
    expect((await settle(a, refused.conversationId)).at(-1)).toMatchObject({ role: 'system', source: 'context-refused', meta: { counted: 'server' } });

    // A short one both fit: the ratio learned is not so large that everything looks too long.
    const b = await startApp((await pool.get(SCRIPTS.plain, { ctx: 4096 })).url);
    apps.push(b);
    const short = await meterOf(b, 'Hello there.');
    expect(fitsWindow(short.estimate, short.window)).toBe(true);
    const answered = send(b, 'Hello there.');
    expect((await settle(b, answered.conversationId)).at(-1)).toMatchObject({ role: 'assistant', status: 'done' });
  });
});
