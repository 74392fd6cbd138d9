/**
 * Make room from the edit form: a sent message edited to something the window does not hold. The plan is measured
 * for the branch as it will be after the edit (the turns before the edited message, then the edited text; the turns
 * after it are not sent), and a choice sends the edit once it made room, its card after the edited message. Before,
 * the plan was the whole branch's, its cuts were before the original message, and no choice sent the edit.
 */
import { describe, expect, it } from 'vitest';
import { compactionMeta, continuedMeta, droppedMeta } from '../../../src/shared/context-edits';
import { turnText, type Turn } from '../../../src/shared/turn';
import { settle } from '../integration/helpers';
import { answerBodies, contents, LAST, MODEL, NOTES, SUMMARY, WINDOW, scenarioServer } from './helpers';
import type { Services } from '../../../src/main/services';

const room = scenarioServer();
const start = (summary?: string) => room.start(summary).services;

/** Three exchanges that fit the 4,096-token window: the conversation and its turns. */
async function threeNotes(s: Services): Promise<{ conversationId: string; turns: Turn[] }> {
  await s.handlers['models:set-context']({ model: MODEL, contextWindow: WINDOW, source: 'user' });
  let conversationId: string | null = null;
  for (const note of NOTES) {
    conversationId = (await s.handlers['chat:send']({ conversationId, text: note, model: MODEL })).conversationId;
    expect((await settle(s, conversationId)).at(-1)).toMatchObject({ role: 'assistant', status: 'done' });
  }
  return { conversationId: conversationId!, turns: await settle(s, conversationId!) };
}

const users = (turns: readonly Turn[]) => turns.filter((t) => t.role === 'user');
/** The third note edited into a longer one: with the two exchanges before it, over the window. */
const EDITED = `${LAST}\n\n${NOTES[2]}`;

describe('make room for an edit', () => {
  it('plans for the branch cut at the edited message, and leaving the older turns out sends the edit after its card', async () => {
    const s = start();
    const { conversationId, turns } = await threeNotes(s);
    const last = users(turns).at(-1)!;
    const edit = { turnId: last.id, text: EDITED };
    const whole = await s.handlers['context:plan']({ conversationId, model: MODEL });
    const plan = await s.handlers['context:plan']({ conversationId, model: MODEL, edit });
    // Over with the edit; the third note and its answer are not counted (the whole branch alone fits).
    expect(whole.over).toBe(false);
    expect(plan.over).toBe(true);
    expect(plan.pending).toBe(last.id);
    // The cuts run up to the edited message, with its new words.
    expect(plan.cuts.map((c) => c.turnId)).toEqual([users(turns)[1]!.id, last.id]);
    expect(plan.cuts.at(-1)!.preview).toMatch(/^The last and longest note\./);
    expect(plan.cut!.turnIds).not.toContain(last.id);
    expect(plan.cut!.turnIds).not.toContain(turns.at(-1)!.id);
    expect(plan.newChat).toBe(true);

    const applied = await s.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'drop-oldest', keepFrom: last.id }, edit });
    expect(applied.ok).toBe(true);
    expect(applied.userTurn).toMatchObject({ role: 'user', parentId: last.parentId, blocks: [{ type: 'text', text: EDITED }] });
    expect(applied.card).toMatchObject({ source: 'context-dropped', parentId: applied.userTurn!.id });
    expect(applied.answer).toMatchObject({ parentId: applied.card!.id });
    const after = await settle(s, conversationId);
    expect(after.map((t) => t.id).slice(-3)).toEqual([applied.userTurn!.id, applied.card!.id, applied.answer!.id]);
    expect(droppedMeta(applied.card!.meta)!.turns).toEqual(turns.slice(0, 4).map((t) => t.id));
    // The request is what the card says: the four turns before the edited message left out, the edit sent.
    expect(contents(answerBodies(room.replay).at(-1)!)).toEqual([EDITED]);
    // The original message stays, the edit's sibling.
    expect((await s.handlers['conversations:open']({ conversationId })).siblings[applied.userTurn!.id]?.ids).toEqual([last.id, applied.userTurn!.id]);
  });

  it('a summary for an edit: the summary stands for the turns before it, and the edit follows', async () => {
    const s = start();
    const { conversationId, turns } = await threeNotes(s);
    const last = users(turns).at(-1)!;
    const edit = { turnId: last.id, text: EDITED };
    const applied = await s.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'summarize', keepFrom: users(turns)[1]!.id }, edit });
    expect(applied.ok).toBe(true);
    expect(compactionMeta(applied.card!.meta)!.covered).toEqual(turns.slice(0, 2).map((t) => t.id));
    await settle(s, conversationId);
    expect(contents(answerBodies(room.replay).at(-1)!)).toEqual([expect.stringContaining(SUMMARY), NOTES[1], 'Fine.', EDITED]);
  });

  it('a summary that fails sends nothing of the edit: its card goes where the chat ends, and the branch is as it was', async () => {
    const thinking = [
      { model: MODEL, created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '', thinking: 'Let me think.' }, done: false },
      { model: MODEL, created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '' }, done_reason: 'stop', done: true },
    ]
      .map((l) => `${JSON.stringify(l)}\n`)
      .join('');
    const s = start(thinking);
    const { conversationId, turns } = await threeNotes(s);
    const last = users(turns).at(-1)!;
    const sent = answerBodies(room.replay).length;
    const applied = await s.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'summarize', keepFrom: last.id }, edit: { turnId: last.id, text: EDITED } });
    expect(applied).toMatchObject({ ok: false, answer: null, card: { source: 'error', parentId: turns.at(-1)!.id } });
    expect(applied.userTurn).toBeUndefined();
    expect(turnText(applied.card!)).toMatch(/^No summary was made/);
    const after = await settle(s, conversationId);
    expect(after.map((t) => t.id)).toEqual([...turns.map((t) => t.id), applied.card!.id]);
    expect(answerBodies(room.replay)).toHaveLength(sent);
  });

  it('a new chat from the edit: its first message is the edit, after a summary of the turns before it; the old chat keeps every turn', async () => {
    const s = start();
    const { conversationId, turns } = await threeNotes(s);
    const last = users(turns).at(-1)!;
    const applied = await s.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'new-chat' }, edit: { turnId: last.id, text: EDITED } });
    expect(applied.conversationId).not.toBe(conversationId);
    const fresh = await settle(s, applied.conversationId!);
    expect(fresh.map((t) => t.role)).toEqual(['system', 'user', 'assistant']);
    expect(compactionMeta(fresh[0]!.meta)!.covered).toEqual(turns.slice(0, 4).map((t) => t.id));
    expect(turnText(fresh[1]!)).toBe(EDITED);
    expect(fresh[1]!.id).not.toBe(last.id);
    expect(contents(answerBodies(room.replay).at(-1)!)).toEqual([expect.stringContaining(SUMMARY), EDITED]);
    // The old chat goes on as it was shown, with where it went on after its last turn.
    const old = (await s.handlers['conversations:open']({ conversationId })).turns;
    expect(old.map((t) => t.id).slice(0, -1)).toEqual(turns.map((t) => t.id));
    expect(continuedMeta(old.at(-1)!.meta)?.conversationId).toBe(applied.conversationId);
  });

  it('a file added in the edit is counted in the plan; it is left out by removing it from the edit, not by a card', async () => {
    const s = start();
    const { conversationId, turns } = await threeNotes(s);
    const last = users(turns).at(-1)!;
    const text = 'Log line: the sheep were counted at dawn and again at dusk. '.repeat(200);
    const file = await s.handlers['attachments:add']({ name: 'sheep.log', mime: 'text/plain', dataBase64: Buffer.from(text).toString('base64') });
    const bare = await s.handlers['context:plan']({ conversationId, model: MODEL, edit: { turnId: last.id, text: 'What does the log say?' } });
    const plan = await s.handlers['context:plan']({ conversationId, model: MODEL, edit: { turnId: last.id, text: 'What does the log say?', attachments: [file] } });
    expect(plan.need).toBeGreaterThan(bare.need + 2000);
    expect(plan.over).toBe(true);
    expect(plan.largest.some((l) => l.turnId === last.id)).toBe(false);
    await expect(
      s.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'drop-item', turnId: last.id, item: { kind: 'attachment', id: file.id } }, edit: { turnId: last.id, text: 'What does the log say?', attachments: [file] } }),
    ).rejects.toThrow(/removing it from the edit/);
    expect((await settle(s, conversationId)).map((t) => t.id)).toEqual(turns.map((t) => t.id));
  });

  it('a larger window sends the edit as it is', async () => {
    const s = start();
    const { conversationId, turns } = await threeNotes(s);
    const last = users(turns).at(-1)!;
    const plan = await s.handlers['context:plan']({ conversationId, model: MODEL, edit: { turnId: last.id, text: EDITED } });
    expect(plan.larger.kind).toBe('offer');
    if (plan.larger.kind !== 'offer') return;
    const applied = await s.handlers['context:apply']({ conversationId, model: MODEL, choice: { kind: 'larger-window', window: plan.larger.window }, edit: { turnId: last.id, text: EDITED } });
    expect(applied).toMatchObject({ ok: true, card: null, userTurn: { parentId: last.parentId } });
    await settle(s, conversationId);
    const body = answerBodies(room.replay).at(-1)!;
    expect(contents(body)).toEqual([NOTES[0], 'Fine.', NOTES[1], 'Fine.', EDITED]);
    expect(body.options?.['num_ctx']).toBe(plan.larger.window);
  });
});

