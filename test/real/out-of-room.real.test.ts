/**
 * Issue 21 against a real llama-server on scripted models, with the server's own counts (`/apply-template` +
 * `/tokenize`): a conversation outgrows `-c 8192`; the plan counts what the preflight counts; a summary written by
 * the model takes the older turns' place in the next request, or the oldest turns are left out; no larger window is
 * offered (the server's -c decides, and the offer says so); a summarizer on another server that only thinks leaves
 * an error card and nothing replaced. Request bodies are read back from the step records.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { StepStore } from '../../src/main/db/step-store';
import { compactionMeta, droppedMeta } from '../../src/shared/context-edits';
import type { Turn } from '../../src/shared/turn';
import { PLAIN_ANSWER, SCRIPTS } from '../support/scripted-gguf/scripts';
import { send, settle, startApp, type RealApp } from './support/app';
import { ServerPool } from './support/pool';

const pool = new ServerPool();
const apps: RealApp[] = [];
afterAll(async () => {
  for (const app of apps) app.close();
  await pool.stopAll();
});

const CTX = 8192;
/** About 1,400 tokens each with these byte-fallback tokenizers (the character estimate says ~250). */
const NOTES = [1, 2, 3, 4, 5].map((n) => `note ${n} ${'abcd '.repeat(200)}`);

type Body = { messages: { role: string; content: string }[] };

function answerBodies(app: RealApp, conversationId: string): { body: Body; estimate: number }[] {
  const steps = new StepStore(app.services.db, () => undefined);
  const rows = app.services.db.prepare('SELECT id FROM steps WHERE conversation_id = ? AND turn_id IS NOT NULL ORDER BY created_at, rowid').all(conversationId) as { id: string }[];
  return rows.map((r) => {
    const step = steps.get(r.id)!;
    return { body: JSON.parse(new TextDecoder().decode(steps.rehydrateBody(step.requestDigest))) as Body, estimate: step.tokenEstimate ?? -1 };
  });
}

async function overflowed(): Promise<{ app: RealApp; conversationId: string; turns: Turn[] }> {
  const app = await startApp((await pool.get(SCRIPTS.plain, { ctx: CTX })).url);
  apps.push(app);
  let conversationId: string | null = null;
  for (const note of NOTES) {
    conversationId = send(app, note, conversationId).conversationId;
    await settle(app, conversationId);
  }
  const turns = await settle(app, conversationId!);
  expect(turns.at(-1)).toMatchObject({ role: 'system', source: 'context-refused', meta: { counted: 'server', window: CTX } });
  return { app, conversationId: conversationId!, turns };
}

const planOf = (app: RealApp, conversationId: string) => app.services.handlers['context:plan']({ conversationId, model: app.model, connectionId: app.connectionId });
const userTexts = (body: Body) => body.messages.filter((m) => m.role === 'user').map((m) => m.content);

describe('out of room on llama-server (the server counts)', () => {
  // A new chat on a fresh app (nothing yet learned of this model's tokens per character): the meter's breakdown said
  // "Tool definitions — 260 tokens; Earlier turns — 1,641 tokens" of the server's 1,901, in a chat with no turns.
  // The parts were the character estimate and the earlier turns whatever of the server's count was left.
  it('the meter of a new chat gives the server’s count to the tool definitions, and names no earlier turns', async () => {
    const app = await startApp((await pool.get(SCRIPTS.plain, { ctx: 2048 })).url);
    apps.push(app);
    const m = await app.services.handlers['context:measure']({ conversationId: null, model: app.model, connectionId: app.connectionId });
    expect(m).toMatchObject({ counted: 'server', window: 2048 });
    expect(m.parts?.earlier).toBeUndefined();
    expect((m.parts?.tools ?? 0) + (m.parts?.system ?? 0)).toBe(m.tokens);
    expect(m.parts?.tools).toBeGreaterThan(m.tokens * 0.9);
  });

  it('plans with the server’s count, says a larger window is the server’s -c, and a summary takes the older turns’ place', async () => {
    const { app, conversationId, turns } = await overflowed();
    const plan = await planOf(app, conversationId);
    expect(plan).toMatchObject({ counted: 'server', window: CTX, over: true, need: turns.at(-1)!.meta['estimate'] });
    expect(plan.larger).toMatchObject({ kind: 'none', reason: expect.stringMatching(/fixed when it starts \(n_ctx 8,192\).*Restart it with -c \d+ or more/) });
    expect(plan.cut!.fitsSummarized).toBe(true);

    await app.services.handlers['context:apply']({ conversationId, model: app.model, connectionId: app.connectionId, choice: { kind: 'summarize', keepFrom: plan.cut!.keepFrom } });
    const after = await settle(app, conversationId);
    const meta = compactionMeta(after.find((t) => t.source === 'compaction')!.meta)!;
    expect(meta).toMatchObject({ covered: plan.cut!.turnIds, summary: PLAIN_ANSWER, counted: 'server', tokensBefore: plan.need });
    expect(after.at(-1)).toMatchObject({ role: 'assistant', status: 'done' });
    const last = answerBodies(app, conversationId).at(-1)!;
    expect(last.body.messages[0]).toEqual({ role: 'system', content: `Summary of the ${plan.cut!.turnIds.length} messages before this point, written by ${app.model} to fit the context window:\n\n${PLAIN_ANSWER}` });
    const kept = NOTES.slice(NOTES.length - userTexts(last.body).length);
    expect(userTexts(last.body)).toEqual(kept);
    expect(kept.length).toBeLessThan(NOTES.length);
    // The card's "after" is the server's count of the request that was then sent.
    expect(last.estimate).toBe(meta.tokensAfter);
  });

  it('leaves the oldest turns out: the card’s numbers are the server’s, and those turns are absent from the next request', async () => {
    const { app, conversationId } = await overflowed();
    const plan = await planOf(app, conversationId);
    await app.services.handlers['context:apply']({ conversationId, model: app.model, connectionId: app.connectionId, choice: { kind: 'drop-oldest', keepFrom: plan.cut!.keepFrom } });
    const after = await settle(app, conversationId);
    const meta = droppedMeta(after.find((t) => t.source === 'context-dropped')!.meta)!;
    expect(meta).toMatchObject({ turns: plan.cut!.turnIds, tokens: plan.cut!.tokens, tokensBefore: plan.need, tokensAfter: plan.cut!.after, counted: 'server' });
    const last = answerBodies(app, conversationId).at(-1)!;
    expect(last.body.messages.some((m) => m.content.startsWith('Summary of'))).toBe(false);
    expect(userTexts(last.body)).toEqual(NOTES.slice(NOTES.length - userTexts(last.body).length));
    expect(userTexts(last.body)).not.toContain(NOTES[0]);
    expect(last.estimate).toBe(meta.tokensAfter);
  });

  it('a summarizer the user picked on another server that only thinks: an error card, nothing replaced', async () => {
    const { app, conversationId, turns } = await overflowed();
    const thinker = await pool.get(SCRIPTS.unclosedThink, { ctx: CTX });
    const other = await app.services.handlers['connections:save']({ kind: 'llama-server', label: 'thinker', baseUrl: thinker.url });
    const plan = await planOf(app, conversationId);
    const applied = await app.services.handlers['context:apply']({
      conversationId, model: app.model, connectionId: app.connectionId,
      // A llama-server runs the one model it was started with, whatever name a request gives.
      choice: { kind: 'summarize', keepFrom: plan.cut!.keepFrom, summarizer: { model: 'thinker', connectionId: other.id } },
    });
    expect(applied).toMatchObject({ ok: false, answer: null, card: { source: 'error', meta: { reason: 'summary-failed', model: 'thinker', why: 'thinking-only' } } });
    const after = await settle(app, conversationId);
    expect(after).toHaveLength(turns.length + 1);
    expect(after.some((t) => t.source === 'compaction')).toBe(false);
    expect(answerBodies(app, conversationId)).toHaveLength(NOTES.length - 1);
  });
});
