/**
 * Issue 21 on a scripted real model run by the built-in engine (llama.cpp through node-llama-cpp), where every
 * number is the model tokenizer's exact count: a conversation outgrows a 4,096-token kept window (trained for
 * 16,384). A summary written by the model itself takes the older turns' place in the next request, a larger window
 * is kept and sent as the request's `context_size`, and a summarizer that only thinks leaves an error card and
 * nothing replaced. The request bodies are read back from the step records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StepStore } from '../../../src/main/db/step-store';
import type { Services } from '../../../src/main/services';
import { compactionMeta } from '../../../src/shared/context-edits';
import { turnText, type Turn } from '../../../src/shared/turn';
import { PLAIN_ANSWER, SCRIPTS } from '../../support/scripted-gguf/scripts';
import { builtinServices, cleanup, dataDirWith } from './helpers';

const WINDOW = 4096;
const TRAINED = 16_384;
/** About 800 tokens each with the scripted vocabulary (it spells these words byte by byte). */
const NOTES = [1, 2, 3, 4].map((n) => `Note ${n}. ${'Sheep on the hill. '.repeat(40)}`);

let dir: string;
let services: Services;
beforeAll(() => {
  dir = dataDirWith({
    plain: { script: SCRIPTS.plain, opts: { contextLength: TRAINED } },
    thinker: { script: SCRIPTS.unclosedThink, opts: { contextLength: TRAINED } },
  });
  services = builtinServices(dir);
});
afterAll(() => cleanup(services, dir));

type Body = { messages: { role: string; content: string }[]; context_size?: number };

/** The chat requests (not the summarizer's) of a conversation, as recorded before they were sent. */
function answerBodies(conversationId: string): Body[] {
  const steps = new StepStore(services.db, () => undefined);
  const rows = services.db.prepare('SELECT id FROM steps WHERE conversation_id = ? AND turn_id IS NOT NULL ORDER BY created_at, rowid').all(conversationId) as { id: string }[];
  return rows.map((r) => {
    const step = steps.get(r.id)!;
    return JSON.parse(new TextDecoder().decode(steps.rehydrateBody(step.requestDigest))) as Body;
  });
}

async function settle(conversationId: string): Promise<Turn[]> {
  await expect.poll(() => services.chat.activeCount, { timeout: 120_000, interval: 50 }).toBe(0);
  return (await services.handlers['conversations:open']({ conversationId })).turns;
}

/** Three exchanges that fit, then a fourth message the engine counts over the window. */
async function overflow(): Promise<{ conversationId: string; turns: Turn[] }> {
  await services.handlers['library:set-context']({ file: 'plain.gguf', contextWindow: WINDOW });
  let conversationId: string | null = null;
  for (const note of NOTES) {
    const sent = await services.handlers['chat:send']({ conversationId, text: note, model: 'plain.gguf', connectionId: 'builtin' });
    conversationId = sent.conversationId;
    await settle(conversationId);
  }
  const turns = await settle(conversationId!);
  expect(turns.at(-1)).toMatchObject({ role: 'system', source: 'context-refused', meta: { counted: 'tokenizer', window: WINDOW } });
  return { conversationId: conversationId!, turns };
}

const plan = (conversationId: string) => services.handlers['context:plan']({ conversationId, model: 'plain.gguf', connectionId: 'builtin' });

describe('out of room on the built-in engine (exact counts)', () => {
  it('summarize with the model itself: the card counts exactly, and the next request carries the summary in place of the covered turns', async () => {
    const { conversationId, turns } = await overflow();
    const p = await plan(conversationId);
    // The plan measured the refused request exactly as the preflight did.
    expect(p).toMatchObject({ counted: 'tokenizer', window: WINDOW, over: true, need: turns.at(-1)!.meta['estimate'] });
    expect(p.cut!.fitsSummarized).toBe(true);
    const applied = await services.handlers['context:apply']({ conversationId, model: 'plain.gguf', connectionId: 'builtin', choice: { kind: 'summarize', keepFrom: p.cut!.keepFrom } });
    expect(applied.ok).toBe(true);
    const after = await settle(conversationId);
    const meta = compactionMeta(after.find((t) => t.source === 'compaction')!.meta)!;
    expect(meta).toMatchObject({ covered: p.cut!.turnIds, summary: PLAIN_ANSWER, model: 'plain.gguf', counted: 'tokenizer', tokensBefore: p.need });
    expect(meta.tokensAfter).toBeLessThan(WINDOW);
    expect(after.at(-1)).toMatchObject({ role: 'assistant', status: 'done' });
    const body = answerBodies(conversationId).at(-1)!;
    const kept = p.cut!.turnIds.length;
    expect(body.context_size).toBe(WINDOW);
    expect(body.messages[0]).toEqual({ role: 'system', content: `Summary of the ${kept} messages before this point, written by plain.gguf to fit the context window:\n\n${PLAIN_ANSWER}` });
    const rest = body.messages.slice(1).map((m) => m.content);
    expect(rest.at(-1)).toBe(NOTES[3]);
    for (const covered of after.filter((t) => p.cut!.turnIds.includes(t.id) && t.role === 'user')) expect(rest).not.toContain(turnText(covered));
    // The exact size the engine counted for that request is the card's "after".
    const step = new StepStore(services.db, () => undefined).listForTurn(after.at(-1)!.id)[0]!;
    expect(step.tokenEstimate).toBe(meta.tokensAfter);
  });

  it('a larger window within the trained context: kept for the file, and the next request asks the engine for it', async () => {
    const { conversationId } = await overflow();
    const p = await plan(conversationId);
    expect(p.larger).toMatchObject({ kind: 'offer', engine: 'builtin', current: WINDOW, trained: TRAINED, fits: 'yes' });
    const window = p.larger.kind === 'offer' ? p.larger.window : 0;
    await services.handlers['context:apply']({ conversationId, model: 'plain.gguf', connectionId: 'builtin', choice: { kind: 'larger-window', window } });
    const after = await settle(conversationId);
    expect(after.at(-1)).toMatchObject({ role: 'assistant', status: 'done' });
    const body = answerBodies(conversationId).at(-1)!;
    expect(body.context_size).toBe(window);
    // The refused messages had no answers between them: they go as one (turns audit #5: roles must alternate).
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([NOTES[0], NOTES.slice(1).join('\n\n')]);
    expect(await services.handlers['models:context-window']({ model: 'plain.gguf', connectionId: 'builtin' })).toMatchObject({ contextWindow: window, source: 'user' });
    await services.handlers['library:set-context']({ file: 'plain.gguf', contextWindow: WINDOW });
  });

  it('a summarizer that only thinks: an error card, nothing replaced, nothing answered', async () => {
    const { conversationId, turns } = await overflow();
    const p = await plan(conversationId);
    const applied = await services.handlers['context:apply']({
      conversationId, model: 'plain.gguf', connectionId: 'builtin', choice: { kind: 'summarize', keepFrom: p.cut!.keepFrom, summarizer: { model: 'thinker.gguf', connectionId: 'builtin' } },
    });
    expect(applied).toMatchObject({ ok: false, answer: null, card: { source: 'error', meta: { reason: 'summary-failed', model: 'thinker.gguf', why: 'thinking-only' } } });
    const after = await settle(conversationId);
    expect(after).toHaveLength(turns.length + 1);
    expect(after.some((t) => t.source === 'compaction')).toBe(false);
    expect(await plan(conversationId)).toMatchObject({ need: p.need, over: true, pending: p.pending });
  });
});
