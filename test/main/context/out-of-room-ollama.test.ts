/**
 * Issue 21 through the stand-in Ollama: a conversation that outgrows a 4,096-token window, and each way on. For
 * every choice the next request body is exactly what the card said: the summary in place of the covered turns,
 * the dropped turns absent, the larger num_ctx sent. Nothing is ever removed from the conversation.
 */
import { describe, expect, it } from 'vitest';
import { compactionMeta, droppedMeta } from '../../../src/shared/context-edits';
import { turnText, type Turn } from '../../../src/shared/turn';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import { settle } from '../integration/helpers';
import { answerBodies, contents, LAST, MODEL, NOTES, overflow, planOf, routes, SUMMARY, summaryBodies, WINDOW, scenarioServer } from './helpers';

const room = scenarioServer();
const start = room.start;

const userIds = (turns: Turn[]) => turns.filter((t) => t.role === 'user').map((t) => t.id);

describe('out of room: the refusal offers every way on, with its numbers', () => {
  it('plans from the same numbers as the refusal: the need, the window, a cut that fits with a summary, a larger window that fits the GPU', async () => {
    const { services } = start();
    const { conversationId, turns } = await overflow(services);
    const refused = turns.at(-1)!;
    const plan = await planOf(services, conversationId);
    expect(plan).toMatchObject({ model: MODEL, engine: 'ollama', window: WINDOW, over: true, counted: 'estimate' });
    // The refusal and the plan measured the same request.
    expect(plan.need).toBe(refused.meta['estimate']);
    expect(plan.pending).toBe(userIds(turns).at(-1));
    // The default cut keeps the third exchange and the waiting message: the two oldest exchanges are covered.
    const [u1, u2, u3] = userIds(turns);
    expect(plan.cuts.map((c) => c.turnId)).toEqual(userIds(turns).slice(1));
    expect(plan.cut).toMatchObject({ keepFrom: u3, fitsSummarized: true, fitsDropped: true, latest: false });
    // The point moved to the waiting message itself: no later point exists, and the plan says so (context audit #2).
    const last = await planOf(services, conversationId, userIds(turns).at(-1));
    expect(last.cut).toMatchObject({ keepFrom: userIds(turns).at(-1), latest: true });
    const assistants = turns.filter((t) => t.role === 'assistant' && t.status === 'done').map((t) => t.id);
    expect(plan.cut!.turnIds).toEqual([u1, assistants[0], u2, assistants[1]]);
    expect(plan.cut!.after + plan.cut!.tokens).toBe(plan.need);
    expect(plan.larger).toMatchObject({ kind: 'offer', engine: 'ollama', current: WINDOW, trained: 131_072, fits: 'yes' });
    if (plan.larger.kind === 'offer') {
      expect(plan.larger.window).toBeGreaterThanOrEqual(plan.need + plan.answerRoom);
      // llama3.1:8b: 4.9 GB of weights plus the cache for the new window, within the 12 GB card.
      expect(plan.larger.memoryBytes).toBeGreaterThan(4_920_753_328);
      expect(plan.larger.memoryBytes).toBeLessThan(plan.larger.usableBytes!);
    }
    // The largest parts name the long message, which cannot be left out on its own.
    expect(plan.largest[0]).toMatchObject({ label: 'user message 7', tokens: expect.any(Number) });
    expect(plan.largest[0]!.drop).toBeUndefined();
  });

  it('summarize: the summary card covers the older turns, and the next request carries it in their place', async () => {
    const { services } = start();
    const { conversationId, turns } = await overflow(services);
    const plan = await planOf(services, conversationId);
    const applied = await services.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'summarize', keepFrom: plan.cut!.keepFrom } });
    expect(applied.ok).toBe(true);
    const after = await settle(services, conversationId);
    const card = after.find((t) => t.source === 'compaction')!;
    const meta = compactionMeta(card.meta)!;
    expect(meta).toMatchObject({ covered: plan.cut!.turnIds, summary: SUMMARY, tokensBefore: plan.need, model: MODEL, counted: 'estimate' });
    expect(meta.tokensAfter).toBeLessThan(WINDOW - 512);
    // The summarizer read the covered turns and nothing after them, with no thinking and the chat's window.
    const asked = summaryBodies(room.replay);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.messages.at(-1)!.content).toContain(NOTES[0]!.slice(0, 200));
    expect(asked[0]!.messages.at(-1)!.content).not.toContain(NOTES[2]!.slice(0, 40));
    expect(asked[0]!.options).toMatchObject({ num_ctx: WINDOW });
    // The waiting message was answered with the summary in place of the four covered turns.
    const answer = after.at(-1)!;
    expect(answer).toMatchObject({ role: 'assistant', status: 'done', parentId: card.id });
    const body = answerBodies(room.replay).at(-1)!;
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(body.messages[0]!.content).toBe(`Summary of the 4 messages before this point, written by ${MODEL} to fit the context window:\n\n${SUMMARY}`);
    expect(contents(body).slice(1)).toEqual([NOTES[2], 'Fine.', LAST]);
    expect(body.options).toMatchObject({ num_ctx: WINDOW });
    // Nothing left the conversation: every turn is still on the branch, the summary card among them.
    for (const t of turns) expect(after.map((x) => x.id)).toContain(t.id);
  });

  it('drop the oldest: the card says how many and how many tokens, and those turns are absent from the next request', async () => {
    const { services } = start();
    const { conversationId, turns } = await overflow(services);
    const plan = await planOf(services, conversationId);
    await services.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'drop-oldest', keepFrom: plan.cut!.keepFrom } });
    const after = await settle(services, conversationId);
    const card = after.find((t) => t.source === 'context-dropped')!;
    const meta = droppedMeta(card.meta)!;
    // What the user was shown before confirming is what the card records.
    expect(meta).toMatchObject({ turns: plan.cut!.turnIds, count: 4, tokens: plan.cut!.tokens, tokensBefore: plan.need, tokensAfter: plan.cut!.after });
    expect(turnText(card)).toContain('the 4 messages before this point');
    const body = answerBodies(room.replay).at(-1)!;
    expect(contents(body)).toEqual([NOTES[2], 'Fine.', LAST]);
    expect(summaryBodies(room.replay)).toHaveLength(0);
    expect(after.filter((t) => t.role === 'user').map(turnText)).toEqual([...NOTES, LAST]);
    expect(turns.every((t) => after.some((x) => x.id === t.id))).toBe(true);
  });

  it('a larger window: kept for the model, and the whole conversation is sent with that num_ctx', async () => {
    const { services } = start();
    const { conversationId } = await overflow(services);
    const plan = await planOf(services, conversationId);
    expect(plan.larger.kind).toBe('offer');
    const window = plan.larger.kind === 'offer' ? plan.larger.window : 0;
    const applied = await services.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'larger-window', window } });
    expect(applied.card).toBeNull();
    await settle(services, conversationId);
    const body = answerBodies(room.replay).at(-1)!;
    expect(body.options).toMatchObject({ num_ctx: window });
    expect(contents(body)).toEqual([NOTES[0], 'Fine.', NOTES[1], 'Fine.', NOTES[2], 'Fine.', LAST]);
    expect(await services.handlers['models:context-window']({ model: MODEL })).toMatchObject({ contextWindow: window, source: 'user' });
  });

  it('while a summary is written nothing else is sent in that chat; Stop ends it with a card and nothing replaced', async () => {
    const { services } = room.start();
    const { conversationId } = await overflow(services);
    const plan = await planOf(services, conversationId);
    // The summarizer's stream stops after its first line until released (never, here).
    room.replay.setRoutes(routes(ollamaChatStream(['The user', ' sent', ' notes.'], MODEL)).map((r) => (r.when ? { ...r, holdAfterChunks: 1 } : r)));
    const applying = services.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'summarize', keepFrom: plan.cut!.keepFrom } });
    await expect.poll(() => room.replay.held).toBe(1);
    expect(() => services.handlers['chat:send']({ conversationId, text: 'Hello?', model: MODEL })).toThrow(/A summary is being written for this chat/);
    await expect(services.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'drop-oldest', keepFrom: plan.cut!.keepFrom } })).rejects.toThrow(/being written/);
    expect(await services.handlers['context:cancel']({ conversationId })).toEqual({ cancelled: true });
    const applied = await applying;
    expect(applied).toMatchObject({ ok: false, answer: null, card: { source: 'error', meta: { reason: 'summary-failed', why: 'stopped' } } });
    const after = await settle(services, conversationId);
    expect(after.some((x) => x.source === 'compaction')).toBe(false);
    room.replay.release();
  });

  it('a summarizer that only thinks: an error card says so, nothing is replaced, and nothing is answered', async () => {
    const thinking = [
      { model: MODEL, created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '', thinking: 'Let me think about what to keep.' }, done: false },
      { model: MODEL, created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '' }, done_reason: 'stop', done: true },
    ]
      .map((l) => `${JSON.stringify(l)}\n`)
      .join('');
    const { services } = start(thinking);
    const { conversationId, turns } = await overflow(services);
    const plan = await planOf(services, conversationId);
    const applied = await services.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'summarize', keepFrom: plan.cut!.keepFrom } });
    expect(applied).toMatchObject({ ok: false, answer: null, card: { source: 'error', meta: { reason: 'summary-failed', why: 'thinking-only' } } });
    expect(turnText(applied.card!)).toBe(`No summary was made: ${MODEL} only reasoned and wrote no summary. Nothing was replaced; the conversation stays as it was.`);
    const after = await settle(services, conversationId);
    expect(after.some((t) => t.source === 'compaction')).toBe(false);
    expect(after.length).toBe(turns.length + 1);
    // The request is what it was: still over, still waiting for a way on.
    expect(await planOf(services, conversationId)).toMatchObject({ need: plan.need, over: true, pending: plan.pending });
    expect(answerBodies(room.replay)).toHaveLength(3);
  });
});
