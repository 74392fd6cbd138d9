/**
 * Issue 21 through the stand-in Ollama, continued: leaving one large item out, a new chat that starts from a
 * summary and links back, auto-compact at a threshold (never silent), and a compacted conversation exported and
 * reloaded whole.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createServices } from '../../../src/main/services';
import { compactionMeta, continuedMeta, droppedMeta } from '../../../src/shared/context-edits';
import { turnText } from '../../../src/shared/turn';
import { GPU_12GB, settle } from '../integration/helpers';
import { answerBodies, contents, LAST, MODEL, NOTES, overflow, planOf, SUMMARY, summaryBodies, WINDOW, scenarioServer } from './helpers';

const room = scenarioServer();
const start = room.start;

describe('out of room: one large item, a new chat, auto-compact', () => {
  it('leaves one attachment out of what is sent: the card names it, the model reads a note in its place', async () => {
    const { services } = start();
    await services.handlers['models:set-context']({ model: MODEL, contextWindow: WINDOW, source: 'user' });
    const text = `Log line: the sheep were counted at dawn and again at dusk. `.repeat(300);
    const file = await services.handlers['attachments:add']({ name: 'sheep.log', mime: 'text/plain', dataBase64: Buffer.from(text).toString('base64') });
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'What does the log say?', model: MODEL, attachments: [file] });
    const turns = await settle(services, sent.conversationId);
    expect(turns.at(-1)).toMatchObject({ source: 'context-refused' });
    const plan = await planOf(services, sent.conversationId);
    // Only one message: nothing older to summarize or leave out; the attachment is the way on.
    expect(plan.cut).toBeNull();
    expect(plan.noCut).toMatch(/leave out a large item/);
    const item = plan.largest.find((l) => l.drop?.kind === 'attachment');
    expect(item).toMatchObject({ label: 'attachment sheep.log', turnId: sent.userTurn.id, drop: { kind: 'attachment', id: file.id, name: 'sheep.log' } });
    await services.handlers['context:apply']({ conversationId: sent.conversationId, model: MODEL, choice: { kind: 'drop-item', turnId: sent.userTurn.id, item: { kind: 'attachment', id: file.id } } });
    const after = await settle(services, sent.conversationId);
    const card = after.find((t) => t.source === 'context-dropped')!;
    const meta = droppedMeta(card.meta)!;
    expect(meta.items).toEqual([{ turnId: sent.userTurn.id, kind: 'attachment', id: file.id, name: 'sheep.log', tokens: meta.tokens }]);
    // What it took, less the note left in its place.
    expect(meta.tokens).toBeGreaterThan(item!.tokens - 50);
    expect(meta.tokensAfter).toBe(meta.tokensBefore - meta.tokens);
    expect(turnText(card)).toContain('the attachment sheep.log');
    const body = answerBodies(room.replay).at(-1)!;
    expect(contents(body)).toEqual(['What does the log say?\n\n[The attachment sheep.log was left out of this request to fit the context window.]']);
    expect(after.at(-1)).toMatchObject({ role: 'assistant', status: 'done' });
    // The attachment is still on its message.
    expect(after.find((t) => t.id === sent.userTurn.id)!.blocks).toContainEqual(expect.objectContaining({ type: 'attachment', id: file.id }));
  });

  // Real-engines audit D4: a chat of one long message offered "Continue in a new chat", which then said there was
  // nothing to summarize, and told the user to leave out a large item when there was none.
  it('offers no new chat for a chat of one long message, and says to shorten it when it has nothing to leave out', async () => {
    const { services } = start();
    await services.handlers['models:set-context']({ model: MODEL, contextWindow: WINDOW, source: 'user' });
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Read all of this: ' + 'the sheep were counted at dawn and again at dusk. '.repeat(500), model: MODEL });
    const turns = await settle(services, sent.conversationId);
    expect(turns.at(-1)).toMatchObject({ source: 'context-refused' });
    const plan = await planOf(services, sent.conversationId);
    expect(plan.newChat).toBe(false);
    expect(plan.cut).toBeNull();
    expect(plan.largest.some((l) => l.drop)).toBe(false);
    expect(plan.noCut).toBe('Nothing is older than the message itself: shorten it (edit it), or use a larger window.');
  });

  it('continues in a new chat that starts from a summary and links back; the waiting message is answered there', async () => {
    const { services } = start();
    const { conversationId, turns } = await overflow(services);
    expect((await planOf(services, conversationId)).newChat).toBe(true);
    const title = (await services.handlers['conversations:list']({})).find((c) => c.id === conversationId)!.title;
    const applied = await services.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'new-chat' } });
    expect(applied.conversationId).not.toBe(conversationId);
    const fresh = await settle(services, applied.conversationId!);
    expect(fresh.map((t) => t.role)).toEqual(['system', 'user', 'assistant']);
    const meta = compactionMeta(fresh[0]!.meta)!;
    expect(meta).toMatchObject({ summary: SUMMARY, from: { conversationId, title } });
    // The summary covers everything before the waiting message, which moves to the new chat.
    expect(meta.covered).toEqual(turns.filter((t) => t.role !== 'system' && t.id !== turns.at(-3)!.id && t.status === 'done').map((t) => t.id));
    expect(turnText(fresh[1]!)).toBe(LAST);
    const body = answerBodies(room.replay).at(-1)!;
    expect(contents(body)).toEqual([`Summary of an earlier chat (“${title}”) that this one continues, written by ${MODEL}:\n\n${SUMMARY}`, LAST]);
    // The old chat says where it went on, and keeps every turn.
    const old = (await services.handlers['conversations:open']({ conversationId })).turns;
    expect(continuedMeta(old.at(-1)!.meta)).toEqual({ conversationId: applied.conversationId, title: `${title} (continued)` });
    expect(old.length).toBe(turns.length + 1);
  });

  it('auto-compact at a threshold set for the connection: the same card appears, between the message and its answer', async () => {
    const { services } = start();
    expect(await services.handlers['context:auto-compact']({})).toEqual([]);
    await services.handlers['context:set-auto-compact']({ kind: 'connection', id: 'ollama', threshold: 0.75 });
    await services.handlers['models:set-context']({ model: MODEL, contextWindow: WINDOW, source: 'user' });
    let conversationId: string | null = null;
    for (const note of [...NOTES, LAST]) {
      const sent = await services.handlers['chat:send']({ conversationId, text: note, model: MODEL });
      conversationId = sent.conversationId;
      await settle(services, conversationId);
    }
    const turns = await settle(services, conversationId!);
    // Under the threshold nothing was summarized; the last message reached it.
    expect(summaryBodies(room.replay)).toHaveLength(1);
    const [card, answer] = turns.slice(-2);
    expect(turns.at(-3)).toMatchObject({ role: 'user' });
    expect(turnText(turns.at(-3)!)).toBe(LAST);
    expect(card).toMatchObject({ role: 'system', source: 'compaction', meta: { auto: { threshold: 0.75 } } });
    expect(answer).toMatchObject({ role: 'assistant', status: 'done', parentId: card!.id });
    expect(contents(answerBodies(room.replay).at(-1)!)).toEqual([expect.stringContaining(SUMMARY), NOTES[2], 'Fine.', LAST]);
    // Off again: nothing more is summarized on its own.
    expect(await services.handlers['context:set-auto-compact']({ kind: 'connection', id: 'ollama', threshold: null })).toEqual([]);
  });
});

describe('a compacted conversation, exported and reloaded', () => {
  it('keeps every original turn and the summary card in the export; after a restart the next request still carries the summary', async () => {
    const { services, dir } = start();
    const { conversationId, turns } = await overflow(services);
    const plan = await planOf(services, conversationId);
    await services.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'summarize', keepFrom: plan.cut!.keepFrom } });
    const compacted = await settle(services, conversationId);

    const json = JSON.parse((await services.handlers['conversations:export']({ conversationId, format: 'json' })).text) as { turns: { id: string; source?: string }[] };
    for (const t of compacted) expect(json.turns.map((x) => x.id)).toContain(t.id);
    expect(json.turns.filter((t) => t.source === 'compaction')).toHaveLength(1);
    const md = (await services.handlers['conversations:export']({ conversationId, format: 'markdown' })).text;
    for (const note of NOTES) expect(md).toContain(note.trim());
    expect(md).toContain('## Summary\n\nSummary of the 4 messages before this point');
    expect(md).toContain(SUMMARY);
    // Search still finds a covered turn.
    const hits = await services.handlers['conversations:search']({ query: 'graze' });
    expect(hits.results.some((h) => h.turnId === turns[0]!.id)).toBe(true);
    // An import of the same file (ids taken) points the card at the imported turns.
    const imported = await services.handlers['conversations:import']({ text: JSON.stringify(json) });
    const copy = (await services.handlers['conversations:open']({ conversationId: imported.conversationId })).turns;
    const copyCard = compactionMeta(copy.find((t) => t.source === 'compaction')!.meta)!;
    expect(copyCard.covered).toEqual(copy.filter((t) => t.role !== 'system').slice(0, 4).map((t) => t.id));

    services.close();
    room.cleanupWith(() => rmSync(dir, { recursive: true, force: true }));
    const again = createServices({ dataDir: dir, ollamaUrl: room.replay.url, log: () => {}, probeHost: GPU_12GB, chat: { titles: false } });
    room.cleanupWith(() => {
      again.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const reloaded = (await again.handlers['conversations:open']({ conversationId })).turns;
    expect(reloaded).toEqual(compacted);
    await again.handlers['chat:send']({ conversationId, text: 'And now?', model: MODEL });
    await settle(again, conversationId);
    const body = answerBodies(room.replay).at(-1)!;
    expect(contents(body)).toEqual([expect.stringContaining(SUMMARY), NOTES[2], 'Fine.', LAST, 'Fine.', 'And now?']);
  });
});
