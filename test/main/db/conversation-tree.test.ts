import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { SearchStore } from '../../../src/main/db/search';
import { StepStore } from '../../../src/main/db/step-store';
import { UserFacingError } from '../../../src/main/errors';
import { conversationView } from '../../../src/main/chat/conversation-view';
import { makeTurn, memoryDb, text, tick } from './helpers';

/** u1 -> a1 ; then edit u1 -> u2 -> a2 ; regenerate a2 -> a3. */
function seed() {
  const db = memoryDb();
  const store = new ConversationStore(db);
  store.createConversation('c', 'Trees', 'm', tick());
  store.appendTurn(makeTurn({ id: 'u1', conversationId: 'c', blocks: text('first question') }), tick());
  store.appendTurn(makeTurn({ id: 'a1', conversationId: 'c', parentId: 'u1', role: 'assistant', blocks: text('first answer') }), tick());
  return { db, store };
}

describe('ConversationStore tree operations', () => {
  it("opens a chat with its last turns only when asked (a long chat's first screenful), saying more exist", () => {
    const { store } = seed();
    store.editAndResend('u1', { id: 'u2', blocks: text('better question'), createdAt: tick() }, tick());
    store.appendTurn(makeTurn({ id: 'a2', conversationId: 'c', parentId: 'u2', role: 'assistant', blocks: text('second answer') }), tick());
    const whole = conversationView(store, 'c');
    expect(whole.turns.map((t) => t.id)).toEqual(['u2', 'a2']);
    expect(whole.partial).toBeUndefined();
    const tail = conversationView(store, 'c', 1);
    expect(tail.turns).toEqual(whole.turns.slice(-1));
    expect(tail.partial).toBe(true);
    // Siblings are told for the turns sent; asking for more than there are is the whole chat.
    expect(conversationView(store, 'c', 2).siblings).toEqual(whole.siblings);
    // As many as there are: nothing older to ask for.
    expect(conversationView(store, 'c', 2).partial).toBeUndefined();
    expect(conversationView(store, 'c', 5)).toEqual(whole);
  });

  it('pages the turns older than a held one (a long chat scrolled up), saying whether older ones remain', () => {
    const { store } = seed();
    store.appendTurn(makeTurn({ id: 'u3', conversationId: 'c', parentId: 'a1', blocks: text('next question') }), tick());
    store.appendTurn(makeTurn({ id: 'a3', conversationId: 'c', parentId: 'u3', role: 'assistant', blocks: text('next answer') }), tick());
    const page = conversationView(store, 'c', 2, 'a3');
    expect(page.turns.map((t) => t.id)).toEqual(['a1', 'u3']);
    expect(page.partial).toBe(true);
    const rest = conversationView(store, 'c', 2, 'a1');
    expect(rest.turns.map((t) => t.id)).toEqual(['u1']);
    expect(rest.partial).toBeUndefined();
    // A turn no longer on the active branch (switched away meanwhile) pages nothing in.
    store.editAndResend('u1', { id: 'u2', blocks: text('better question'), createdAt: tick() }, tick());
    expect(conversationView(store, 'c', 2, 'a3').turns).toEqual([]);
  });

  it('edit-and-resend adds a user sibling under the same parent and makes it the active leaf', () => {
    const { store } = seed();
    const edited = store.editAndResend('u1', { id: 'u2', blocks: text('better question'), createdAt: tick() }, tick());
    expect(edited).toMatchObject({ parentId: null, role: 'user', conversationId: 'c' });
    expect(store.getConversation('c')?.activeLeafId).toBe('u2');
    expect(store.siblings('u2')).toEqual({ ids: ['u1', 'u2'], index: 1 });
    expect(store.getTurn('u1')?.blocks).toEqual(text('first question'));
  });

  it('regenerate adds an empty streaming assistant sibling and keeps the model', () => {
    const { store } = seed();
    store.updateTurn({ ...store.getTurn('a1')!, model: 'llama3' });
    const fresh = store.regenerate('a1', { id: 'a2', createdAt: tick() }, tick());
    expect(fresh).toMatchObject({ parentId: 'u1', role: 'assistant', status: 'streaming', blocks: [], model: 'llama3' });
    expect(store.siblings('a1')).toEqual({ ids: ['a1', 'a2'], index: 0 });
    expect(store.branch(store.getConversation('c')!.activeLeafId!).map((t) => t.id)).toEqual(['u1', 'a2']);
  });

  it('refuses to edit an answer or regenerate a question, and unknown ids, with user-facing errors', () => {
    const { store } = seed();
    expect(() => store.editAndResend('a1', { id: 'x', blocks: [], createdAt: 1 }, 1)).toThrow(UserFacingError);
    expect(() => store.regenerate('u1', { id: 'x', createdAt: 1 }, 1)).toThrow(UserFacingError);
    expect(() => store.siblings('nope')).toThrow(/no longer exists/);
  });

  it('switches branch to the newest leaf under the chosen sibling', () => {
    const { store } = seed();
    store.appendTurn(makeTurn({ id: 'u1b', conversationId: 'c', parentId: 'a1', blocks: text('follow-up') }), tick());
    store.appendTurn(makeTurn({ id: 'a1b', conversationId: 'c', parentId: 'u1b', role: 'assistant', blocks: text('deep answer') }), tick());
    // A second, older-ending path under u1: regenerate a1, then the deep branch stays the newest.
    store.editAndResend('u1', { id: 'u2', blocks: text('other'), createdAt: tick() }, tick());
    store.appendTurn(makeTurn({ id: 'a2', conversationId: 'c', parentId: 'u2', role: 'assistant', blocks: text('other answer') }), tick());
    expect(store.getConversation('c')?.activeLeafId).toBe('a2');

    const before = store.getConversation('c')!.updatedAt;
    expect(store.switchBranch('u1')).toBe('a1b');
    expect(store.getConversation('c')).toMatchObject({ activeLeafId: 'a1b', updatedAt: before });
    expect(store.switchBranch('u2')).toBe('a2');
    expect(store.switchBranch('a2')).toBe('a2');
  });

  // Conversations audit D4: going back to a message's other version opened the newest answer under it, not the one
  // the user had chosen there and was reading.
  it('switches back to the leaf that was on screen last under the chosen sibling, not the newest', () => {
    const { store } = seed();
    store.regenerate('a1', { id: 'a1r', createdAt: tick() }, tick());
    expect(store.switchBranch('a1', tick())).toBe('a1');
    store.editAndResend('u1', { id: 'u2', blocks: text('edited question'), createdAt: tick() }, tick());
    store.appendTurn(makeTurn({ id: 'a2', conversationId: 'c', parentId: 'u2', role: 'assistant', blocks: text('answer to the edit') }), tick());
    // Back to the first question: the answer read there (a1), though a1r is newer.
    expect(store.switchBranch('u1', tick())).toBe('a1');
    expect(store.switchBranch('u2', tick())).toBe('a2');
    expect(store.switchBranch('u1', tick())).toBe('a1');
    // Choosing the other answer there, then leaving and coming back, opens that one.
    expect(store.switchBranch('a1r', tick())).toBe('a1r');
    expect(store.switchBranch('u2', tick())).toBe('a2');
    expect(store.switchBranch('u1', tick())).toBe('a1r');
    // Messages added under the leaf on screen keep the branch's newest leaf the one shown.
    store.appendTurn(makeTurn({ id: 'u3', conversationId: 'c', parentId: 'a1r', blocks: text('more') }), tick());
    expect(store.switchBranch('u2', tick())).toBe('a2');
    expect(store.switchBranch('u1', tick())).toBe('u3');
  });

  it('lists every turn of every branch, parents first', () => {
    const { store } = seed();
    store.regenerate('a1', { id: 'a2', createdAt: tick() }, tick());
    expect(store.listTurns('c').map((t) => t.id)).toEqual(['u1', 'a1', 'a2']);
  });

  it('renames and deletes conversations; deleting removes turns and their search entries', () => {
    const { db, store } = seed();
    expect(store.renameConversation('c', 'Renamed')).toBe(true);
    expect(store.listConversations()[0]?.title).toBe('Renamed');
    expect(new SearchStore(db).search('first')).toHaveLength(2);
    expect(store.deleteConversation('c')).toBe(true);
    expect(store.deleteConversation('c')).toBe(false);
    expect(db.prepare('SELECT count(*) AS n FROM turns').get()).toEqual({ n: 0 });
    expect(new SearchStore(db).search('first')).toEqual([]);
    expect(store.renameConversation('c', 'x')).toBe(false);
  });

  it('deletes a chat of 1,500 turns in one branch, with its request records and search entries, and nothing else', () => {
    const { db, store } = seed();
    const steps = new StepStore(db, () => undefined);
    store.createConversation('long', 'Long', 'm', tick());
    let parentId: string | null = null;
    db.transaction(() => {
      for (let t = 0; t < 1_500; t++) {
        const turn = makeTurn({ id: `l${t}`, conversationId: 'long', parentId, role: t % 2 === 0 ? 'user' : 'assistant', blocks: text(`long turn ${t}`) });
        store.appendTurn(turn, tick());
        if (t % 2 === 1) steps.begin({ id: `s${t}`, turnId: turn.id, conversationId: 'long', stepIndex: 0, body: `{"n":${t}}`, dialect: 'ollama', endpoint: 'http://h/api/chat', model: 'm', now: tick() });
        parentId = turn.id;
      }
    })();
    // Each turn's parent link cascades: deleted from the root, SQLite refused the 1,000th level of nesting.
    expect(store.deleteConversation('long')).toBe(true);
    expect(db.prepare("SELECT count(*) AS n FROM turns WHERE conversation_id = 'long'").get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM steps').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM request_bodies').get()).toEqual({ n: 0 });
    expect(new SearchStore(db).search('long')).toEqual([]);
    expect(conversationView(store, 'c').turns.map((t) => t.id)).toEqual(['u1', 'a1']);
    expect(new SearchStore(db).search('first')).toHaveLength(2);
  });
});

describe('system turns', () => {
  it('round-trip source and meta', () => {
    const { store } = seed();
    const meta = { needed: 9000, window: 8192, model: 'qwen' };
    store.appendTurn(makeTurn({ id: 's1', conversationId: 'c', parentId: 'a1', role: 'system', source: 'context-refused', meta, blocks: text('too long') }), tick());
    expect(store.getTurn('s1')).toMatchObject({ source: 'context-refused', meta });
  });

  it('rows written before a kind existed (source NULL) reload as plain text turns', () => {
    const { db, store } = seed();
    db.prepare(
      `INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, source, meta, status, created_at)
       VALUES ('old', 'c', 'a1', 'system', '[{"type":"text","text":"Model switched to llama3."}]', 'Model switched to llama3.', NULL, 'null', 'done', 5)`,
    ).run();
    const turn = store.getTurn('old')!;
    expect(turn.source).toBeUndefined();
    expect('source' in turn).toBe(false);
    expect(turn.meta).toEqual({});
    expect(turn.blocks).toEqual(text('Model switched to llama3.'));
  });
});
