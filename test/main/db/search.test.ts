import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { MATCH_END, MATCH_START, SearchStore, toFtsQuery } from '../../../src/main/db/search';
import type { Block } from '../../../src/shared/turn';
import { makeTurn, memoryDb, text, tick } from './helpers';

function setup() {
  const db = memoryDb();
  const store = new ConversationStore(db);
  const search = new SearchStore(db);
  store.createConversation('c1', 'Garden', null, tick());
  store.createConversation('c2', 'Cooking', null, tick());
  store.appendTurn(makeTurn({ id: 'u1', conversationId: 'c1', blocks: text('How do I grow tomatoes on a balcony?') }), tick());
  store.appendTurn(makeTurn({ id: 'a1', conversationId: 'c1', parentId: 'u1', role: 'assistant', blocks: [{ type: 'reasoning', text: 'secret zucchini', origin: 'native' }, ...text('Tomatoes need sun. Tomatoes need water. Tomatoes <script>alert(1)</script>.')] }), tick());
  const attachment: Block = { type: 'attachment', id: 'f'.repeat(64), kind: 'document', name: 'sourdough-recipe.pdf', mime: 'application/pdf', size: 10 };
  store.appendTurn(makeTurn({ id: 'u2', conversationId: 'c2', blocks: [...text('Check this bread, and a tomato'), attachment] }), tick());
  store.appendTurn(makeTurn({ id: 's2', conversationId: 'c2', parentId: 'u2', role: 'system', blocks: text('tomato system card') }), tick());
  return { db, store, search };
}

describe('SearchStore', () => {
  it('finds user text and answers, ranked, with conversation, title, turn and marked snippet', () => {
    const { search } = setup();
    const hits = search.search('tomato');
    expect(hits.map((h) => h.turnId)).toEqual(['a1', 'u1', 'u2']);
    expect(hits[0]).toMatchObject({ conversationId: 'c1', title: 'Garden', turnId: 'a1' });
    expect(hits[0]!.snippet).toContain(`${MATCH_START}Tomatoes${MATCH_END} need sun`);
    // Markup in answers comes back as plain characters for the UI to render as text.
    expect(search.search('alert')[0]!.snippet).toContain('<script>');
  });

  it('searches attachment names, not reasoning or system cards', () => {
    const { search } = setup();
    expect(search.search('sourdough').map((h) => h.turnId)).toEqual(['u2']);
    expect(search.search('zucchini')).toEqual([]);
    expect(search.search('system card')).toEqual([]);
  });

  it('follows the turn as it is rewritten (streaming) and forgets deleted conversations', () => {
    const { search, store } = setup();
    const a1 = store.getTurn('a1')!;
    store.updateTurn({ ...a1, blocks: text('Peppers instead.') });
    expect(search.search('peppers').map((h) => h.turnId)).toEqual(['a1']);
    expect(search.search('sun')).toEqual([]);
    store.deleteConversation('c1');
    expect(search.search('peppers')).toEqual([]);
  });

  it('indexes a streaming answer once it ends, however it ends, not on every write while it streams (issue 20)', () => {
    const { search, store } = setup();
    const ends = [
      { id: 'd', status: 'done' as const, last: 'Basil likes warmth.' },
      // The last streaming write already held the final text: the write that ends it changes only the status.
      { id: 'x', status: 'aborted' as const, last: 'Oregano stopped' },
      { id: 'i', status: 'interrupted' as const, last: 'Thyme interrupted' },
    ];
    for (const end of ends) {
      const answer = makeTurn({ id: end.id, conversationId: 'c1', parentId: 'u1', role: 'assistant', status: 'streaming' });
      store.appendTurn(answer, tick());
      store.updateTurn({ ...answer, blocks: text(end.last.split(' ')[0]!) });
      store.updateTurn({ ...answer, blocks: text(end.last) });
      expect(search.search(end.last.split(' ')[0]!)).toEqual([]);
      store.updateTurn({ ...answer, blocks: text(end.last), status: end.status });
      expect(search.search(end.last.split(' ')[0]!).map((h) => h.turnId)).toEqual([end.id]);
    }
  });

  it('treats the last word as a prefix and ignores case and accents', () => {
    const { search } = setup();
    expect(search.search('BALC').map((h) => h.turnId)).toEqual(['u1']);
    expect(search.search('bâlcony tomatoes').map((h) => h.turnId)).toEqual(['u1']);
  });

  it('ranks only the newest matches when a word is everywhere (the window), returning at most the limit', () => {
    const { search } = setup();
    // Newest match first by seq: u2 (c2) is the newest 'tomato' turn.
    expect(search.search('tomato', 1, 1).map((h) => h.turnId)).toEqual(['u2']);
    expect(search.search('tomato', 2, 2).map((h) => h.turnId)).toEqual(['a1', 'u2']);
    expect(search.search('tomato', 1).map((h) => h.turnId)).toEqual(['a1']);
  });

  it('never throws on user query syntax', () => {
    const { search } = setup();
    for (const q of ['"', 'NEAR(a b', 'a AND', 'OR', '*', 'text:foo', '^', '(', '""""', '-x', 'a"b', '\u0000', '   ']) {
      expect(() => search.search(q)).not.toThrow();
    }
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (q) => Array.isArray(search.search(q))), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (q) => Array.isArray(search.search(q))), { numRuns: 300 });
  });

  it('quotes every word so FTS operators lose their meaning', () => {
    expect(toFtsQuery('cats OR dogs')).toBe('"cats" "OR" "dogs"*');
    expect(toFtsQuery('say "hi"')).toBe('"say" """hi"""*');
    expect(toFtsQuery('  ?! ')).toBeNull();
  });
});
