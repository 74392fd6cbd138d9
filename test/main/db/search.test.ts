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

  // Search audit: a chat renamed "Quarterly taxes" was listed under that title, and "taxes" found nothing.
  it('finds a conversation by its title, first, marked, as renamed, and not once deleted', () => {
    const { search, store } = setup();
    const hits = search.search('garden');
    expect(hits.map((h) => [h.conversationId, h.turnId])).toEqual([['c1', null]]);
    expect(hits[0]!.snippet).toBe(`${MATCH_START}Garden${MATCH_END}`);
    // The last word a prefix, accents and case aside; a chat with a message found is offered at the message only.
    store.renameConversation('c2', 'Tomato café');
    expect(search.search('CAFE').map((h) => [h.conversationId, h.turnId])).toEqual([['c2', null]]);
    expect(search.search('tomato').map((h) => h.turnId)).toEqual(['a1', 'u1', 'u2']);
    store.renameConversation('c1', 'Sourdough notes');
    expect(search.search('sourdough').map((h) => [h.conversationId, h.turnId])).toEqual([['c1', null], ['c2', 'u2']]);
    store.renameConversation('c1', 'Garden');
    expect(search.search('gard').map((h) => h.conversationId)).toEqual(['c1']);
    store.createConversation('c3', '東京の天気', null, tick());
    expect(search.search('天気').map((h) => [h.conversationId, h.turnId, h.snippet])).toEqual([['c3', null, `東京の${MATCH_START}天気${MATCH_END}`]]);
    store.deleteConversation('c1');
    expect(search.search('garden')).toEqual([]);
  });

  it('searches attachment names and reasoning (said to be there), not system cards', () => {
    const { search } = setup();
    expect(search.search('sourdough').map((h) => h.turnId)).toEqual(['u2']);
    expect(search.search('sourdough')[0]!.where).toBeUndefined();
    expect(search.search('zucchini').map((h) => [h.turnId, h.where])).toEqual([['a1', { kind: 'reasoning' }]]);
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
    // The same through the trigram index: any query with a CJK character in it.
    for (const q of ['天"', '"天"', '天 NEAR(a', '天 *', '天 text:foo', '天 %', '天 _', '天 \\']) expect(() => search.search(q)).not.toThrow();
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (q) => Array.isArray(search.search(`東${q}`))), { numRuns: 300 });
  });

  it('finds Chinese and Japanese words inside a sentence, marked in the snippet, of any length (audit files #7)', () => {
    const { search, store } = setup();
    store.createConversation('c3', 'Weather', null, tick());
    store.appendTurn(makeTurn({ id: 'j1', conversationId: 'c3', blocks: text('東京の天気は晴れです') }), tick());
    store.appendTurn(makeTurn({ id: 'j2', conversationId: 'c3', parentId: 'j1', role: 'assistant', blocks: text('明日の天気は雨でしょう。Take an umbrella to the café.') }), tick());
    const hits = (q: string) => search.search(q).map((h) => h.turnId);
    // Before 0012 only the start of a run was found ("東京"); a word inside it was "Nothing found."
    expect(hits('天気は')).toEqual(expect.arrayContaining(['j1', 'j2']));
    expect(hits('晴れです')).toEqual(['j1']);
    expect(search.search('晴れです')[0]).toMatchObject({ conversationId: 'c3', title: 'Weather', snippet: `東京の天気は${MATCH_START}晴れです${MATCH_END}` });
    // One or two characters (shorter than a trigram): the trigrams they start, at the end of the text too.
    expect(hits('天気').sort()).toEqual(['j1', 'j2']);
    expect(hits('雨')).toEqual(['j2']);
    expect(hits('です')).toEqual(['j1']);
    expect(hits('す')).toEqual(['j1']);
    expect(search.search('す')[0]!.snippet).toBe(`東京の天気は晴れで${MATCH_START}す${MATCH_END}`);
    expect(search.search('雨')[0]!.snippet).toBe(`明日の天気は${MATCH_START}雨${MATCH_END}でしょう。Take an umbrella to the café.`);
    // Words are ANDed, Latin ones with them folded as the Latin search folds them, short or long.
    expect(hits('天気 UMBRELLA')).toEqual(['j2']);
    expect(hits('天気 cafe')).toEqual(['j2']);
    expect(hits('天気 to')).toEqual(['j2']);
    expect(hits('晴れ tomato')).toEqual([]);
    // Latin search is as it was: the trigram index holds only turns with a CJK character.
    expect(hits('umbrella')).toEqual(['j2']);
  });

  it('finds Thai, Lao and Khmer words inside a sentence, their vowel and tone marks kept (0013)', () => {
    const { search, store } = setup();
    store.createConversation('c3', 'Languages', null, tick());
    store.appendTurn(makeTurn({ id: 'th', conversationId: 'c3', blocks: text('ภาษาไทยง่ายนิดเดียว') }), tick());
    store.appendTurn(makeTurn({ id: 'km', conversationId: 'c3', parentId: 'th', role: 'assistant', blocks: text('ភាសាខ្មែរស្រួលណាស់ and Lao: ພາສາລາວ') }), tick());
    const hits = (q: string) => search.search(q).map((h) => h.turnId);
    expect(hits('ง่าย')).toEqual(['th']);
    expect(search.search('ง่าย')[0]!.snippet).toBe(`ภาษาไทย${MATCH_START}ง่าย${MATCH_END}นิดเดียว`);
    // The marks are part of the word: without its tone mark (่) the word is another one, not found.
    expect(hits('งาย')).toEqual([]);
    expect(hits('ស្រួល')).toEqual(['km']);
    expect(hits('ລາວ Lao')).toEqual(['km']);
  });

  it('finds a CJK character that starts too many trigrams to OR by reading the newest rows (audit files #7)', () => {
    const { search, store } = setup();
    store.createConversation('c3', 'Kana', null, tick());
    // "の" before 80 different characters: 80 trigrams start with it, more than are ORed.
    const kana = Array.from({ length: 80 }, (_, i) => String.fromCodePoint(0x4e00 + i));
    kana.forEach((k, i) => store.appendTurn(makeTurn({ id: `k${i}`, conversationId: 'c3', blocks: text(`本の${k}${k}`) }), tick()));
    expect(search.search('の', 5).map((h) => h.turnId)).toEqual(['k79', 'k78', 'k77', 'k76', 'k75']);
    // Beside a rarer word, that word's trigrams narrow and the common one filters; a word in no turn finds none.
    expect(search.search(`の ${kana[3]}${kana[3]}`).map((h) => h.turnId)).toEqual(['k3']);
    expect(search.search(`の ${kana[3]}${kana[4]}`)).toEqual([]);
    expect(search.search(`の 本の${kana[3]}`).map((h) => h.turnId)).toEqual(['k3']);
    expect(search.search('本の')).toHaveLength(50);
  });

  it('finds CJK in attachment names, follows rewrites and deletes, and skips streaming writes (issue 20)', () => {
    const { db, search, store } = setup();
    const attachment: Block = { type: 'attachment', id: 'e'.repeat(64), kind: 'image', name: '京都の写真.png', mime: 'image/png', size: 10 };
    store.appendTurn(makeTurn({ id: 'n1', conversationId: 'c2', blocks: [...text('Look at this'), attachment] }), tick());
    expect(search.search('写真').map((h) => h.turnId)).toEqual(['n1']);
    expect(search.search('京都の写')[0]!.snippet).toBe(`${MATCH_START}京都の写${MATCH_END}真.png`);
    const indexed = () => (db.prepare('SELECT count(*) AS n FROM turns_cjk').get() as { n: number }).n;
    const before = indexed();
    const answer = makeTurn({ id: 'k1', conversationId: 'c2', parentId: 'n1', role: 'assistant', status: 'streaming' });
    store.appendTurn(answer, tick());
    store.updateTurn({ ...answer, blocks: text('京都は') });
    store.updateTurn({ ...answer, blocks: text('京都は古い都です') });
    expect(indexed()).toBe(before);
    expect(search.search('古い都')).toEqual([]);
    store.updateTurn({ ...answer, blocks: text('京都は古い都です'), status: 'done' });
    expect(search.search('古い都').map((h) => h.turnId)).toEqual(['k1']);
    // Rewritten without CJK: out of the trigram index, in the Latin one.
    store.updateTurn({ ...store.getTurn('k1')!, blocks: text('Kyoto is an old capital') });
    expect(search.search('古い都')).toEqual([]);
    expect(search.search('kyoto').map((h) => h.turnId)).toEqual(['k1']);
    store.updateTurn({ ...store.getTurn('k1')!, blocks: text('古い都 again') });
    expect(search.search('古い都').map((h) => h.turnId)).toEqual(['k1']);
    store.deleteConversation('c2');
    expect(search.search('古い都')).toEqual([]);
    expect(search.search('写真')).toEqual([]);
    expect(indexed()).toBe(0);
  });

  // Keyboard audit #4: "C++" and "C#" became the prefix "c" and matched coffee, Café and 80 °C.
  it('finds C++ and C# as written, not every word that begins with c', () => {
    const { search, store } = setup();
    store.createConversation('c3', 'Languages', null, tick());
    store.appendTurn(makeTurn({ id: 'p1', conversationId: 'c3', blocks: text('Port this from C++ to C#, please') }), tick());
    store.appendTurn(makeTurn({ id: 'p2', conversationId: 'c3', parentId: 'p1', blocks: text('Coffee first. Café crème at 80 °C.') }), tick());
    store.appendTurn(makeTurn({ id: 'p3', conversationId: 'c3', parentId: 'p2', blocks: text('Some c code and F# too') }), tick());
    expect(search.search('C++').map((h) => h.turnId)).toEqual(['p1']);
    expect(search.search('c#').map((h) => h.turnId)).toEqual(['p1']);
    expect(search.search('F#').map((h) => h.turnId)).toEqual(['p3']);
    expect(search.search('port C++').map((h) => h.turnId)).toEqual(['p1']);
    // A plain last word is still a prefix as it is typed.
    expect(search.search('cof').map((h) => h.turnId)).toEqual(['p2']);
  });

  // Search audit: "1.2.3" found nothing in "v1.2.3" (the tokenizer reads "v1" "2" "3"), and "🚀" found nothing at all.
  it('finds a version inside a longer token and an emoji, marking what was typed', () => {
    const { search, store } = setup();
    store.createConversation('c3', 'Release 🚀 notes', null, tick());
    store.appendTurn(makeTurn({ id: 'r1', conversationId: 'c3', blocks: text('We shipped v1.2.3 today 🚀 and python3.11 works') }), tick());
    store.appendTurn(makeTurn({ id: 'r2', conversationId: 'c3', parentId: 'r1', blocks: text('Version 1 has 2 parts and 3 tests; see v1-2 and 4.2.3') }), tick());
    const hit = (q: string) => search.search(q).map((h) => [h.turnId, h.snippet]);
    expect(hit('1.2.3')).toEqual([['r1', `We shipped v${MATCH_START}1.2.3${MATCH_END} today 🚀 and python3.11 works`]]);
    // Typed part way, and the number as its own token still found.
    expect(hit('1.2')).toEqual([['r1', `We shipped v${MATCH_START}1.2${MATCH_END}.3 today 🚀 and python3.11 works`]]);
    expect(hit('3.11').map(([id]) => id)).toEqual(['r1']);
    expect(hit('2.3').map(([id]) => id).sort()).toEqual(['r1', 'r2']);
    expect(hit('V1.2.3').map(([id]) => id)).toEqual(['r1']);
    // An emoji alone: the message, and the title that holds it, each marked.
    const rocket = search.search('🚀');
    expect(rocket.map((h) => [h.conversationId, h.turnId])).toEqual([['c3', 'r1']]);
    expect(rocket[0]!.snippet).toContain(`today ${MATCH_START}🚀${MATCH_END} and`);
    store.appendTurn(makeTurn({ id: 'x1', conversationId: 'c1', blocks: text('no rocket here') }), tick());
    store.renameConversation('c2', 'Launch 🚀');
    expect(search.search('🚀').map((h) => [h.conversationId, h.turnId, h.snippet])).toEqual([
      ['c2', null, `Launch ${MATCH_START}🚀${MATCH_END}`],
      ['c3', 'r1', rocket[0]!.snippet],
    ]);
    // Punctuation alone is still no query.
    expect(search.search('?!')).toEqual([]);
  });

  /** A "Deadlines" chat of one message per `says` line, in order; `hit`: a query's turn ids and snippets, by id. */
  function deadlines(says: readonly (readonly [string, string])[]) {
    const made = setup();
    made.store.createConversation('c3', 'Deadlines', null, tick());
    let parent: string | null = null;
    for (const [id, words] of says) {
      made.store.appendTurn(makeTurn({ id, conversationId: 'c3', parentId: parent, blocks: text(words) }), tick());
      parent = id;
    }
    const hit = (q: string) => made.search.search(q).map((h) => [h.turnId, h.snippet]).sort(([a], [b]) => String(a).localeCompare(String(b)));
    return { ...made, hit };
  }

  // Search: "2024-01-15" found "2024/01/15" until "1.2.3" had to be in the text as typed; a date is found however it
  // was written, marked whole, and not where the numbers differ or come in another order.
  it('finds a date written with "-", "/" or ".", marked whole, and no other numbers', () => {
    const says = [
      ['d1', 'Invoice due 2024/01/15, paid late'],
      ['d2', 'Meeting on 2024.01.15 at noon'],
      ['d3', 'Released 2024-01-15 after review'],
      ['d4', 'Not this one: 2023-01-15 or 2024-02-15'],
      ['d5', 'Nor this: 2024 01 15 apart, or 15 01 2024'],
      ['d6', 'Nor 2024-01-16, nor 1/15 on its own'],
    ] as const;
    const { search, store, hit } = deadlines(says);
    const dated = (words: string, date: string) => words.replace(date, `${MATCH_START}${date}${MATCH_END}`);
    for (const query of ['2024-01-15', '2024/01/15', '2024.01.15']) {
      expect(hit(query)).toEqual([
        ['d1', dated(says[0][1], '2024/01/15')],
        ['d2', dated(says[1][1], '2024.01.15')],
        ['d3', dated(says[2][1], '2024-01-15')],
      ]);
    }
    // Typed part way, it is found as it is typed.
    expect(hit('2024/01/1').map(([id]) => id)).toEqual(['d1', 'd2', 'd3', 'd6']);
    // A title with the date is found as well.
    store.renameConversation('c2', 'Plans for 2024.01.15');
    expect(search.search('2024-01-15')[0]).toMatchObject({ conversationId: 'c2', turnId: null, snippet: `Plans for ${MATCH_START}2024.01.15${MATCH_END}` });
    // "1.2.3" still finds "v1.2.3" and no other version, marked as written there.
    store.appendTurn(makeTurn({ id: 'v1', conversationId: 'c1', blocks: text('We shipped v1.2.3 today; see 4.2.3 and 1-2') }), tick());
    expect(hit('1.2.3')).toEqual([['v1', `We shipped v${MATCH_START}1.2.3${MATCH_END} today; see 4.2.3 and 1-2`]]);
  });

  // Search: "15.01.2024", as most of the world types a date, found nothing where the model wrote "2024-01-15", nor
  // "2024-01-15" a message that said "15.01.2024": a whole date is found however the day is written, and marked so.
  it('finds a whole date typed day first, month first or year first in the others, marked as written', () => {
    const says = [
      ['d1', 'Released 2024-01-15 after review'],
      ['d2', 'Treffen am 15.01.2024 um zwölf'],
      ['d3', 'Invoice dated 1/15/2024, paid'],
      ['d4', 'Due 01/15/2024 at the latest'],
      ['d5', 'Rendez-vous le 15/1/2024 matin'],
      ['d6', 'Not these: 2024 01 15 apart, 11/15/2024, 15.01.2023, 2024-01-16, 15.01.20'],
    ] as const;
    const { search, store, hit } = deadlines(says);
    const dated = ([id, words]: readonly [string, string], date: string) => [id, words.replace(date, `${MATCH_START}${date}${MATCH_END}`)];
    const all = [dated(says[0], '2024-01-15'), dated(says[1], '15.01.2024'), dated(says[2], '1/15/2024'), dated(says[3], '01/15/2024'), dated(says[4], '15/1/2024')];
    for (const query of ['2024-01-15', '15.01.2024', '15/01/2024', '01/15/2024', '1/15/2024', '15.1.2024', '2024/1/15']) expect(hit(query), query).toEqual(all);
    // With other words, as one of them.
    expect(hit('invoice 15.01.2024 paid').map(([id]) => id)).toEqual(['d3']);
    expect(hit('15.01.2024 invoice').map(([id]) => id)).toEqual(['d3']);
    // Part-typed, a date is found as it is typed, and nothing breaks.
    expect(hit('15.01.20').map(([id]) => id)).toEqual(['d2', 'd6']);
    expect(hit('15.01.').map(([id]) => id)).toEqual(['d2', 'd6']);
    expect(hit('2024-01-1').map(([id]) => id)).toEqual(['d1', 'd6']);
    // A title with the date, written another way, is found as well, marked.
    store.renameConversation('c2', 'Plans for 15.01.2024');
    expect(search.search('2024-01-15')[0]).toMatchObject({ conversationId: 'c2', turnId: null, snippet: `Plans for ${MATCH_START}15.01.2024${MATCH_END}` });
    // Any numbers in a date's shape, before, between or after other words, are a query that cannot throw.
    const num = (max: number) => fc.integer({ min: 0, max }).map(String);
    const sep = fc.constantFrom('-', '/', '.');
    const date = fc.tuple(fc.oneof(num(99), num(9999)), sep, num(99), sep, fc.oneof(num(99), num(9999), fc.constant(''))).map((p) => p.join(''));
    const around = fc.constantFrom('', 'invoice', '"x"', 'OR', 'C++', '1.2');
    fc.assert(fc.property(around, date, around, date, (a, d, b, e) => Array.isArray(search.search(`${a} ${d} ${b} ${e}`))), { numRuns: 300 });
  });

  // Where the day and the month could be either ("03/02/2024"), both days are found, and no third.
  it('finds both days a date could be where its day and month could be either', () => {
    const { search, store } = setup();
    store.createConversation('c3', 'Dates', null, tick());
    const says = [
      ['e1', 'Shipped 2024-02-03.'],
      ['e2', 'Shipped 2024-03-02.'],
      ['e3', 'Shipped 3.2.2024.'],
      ['e4', 'Not 2024-02-04, nor 2024-03-20, nor 13/02/2024.'],
    ] as const;
    let parent: string | null = null;
    for (const [id, words] of says) {
      store.appendTurn(makeTurn({ id, conversationId: 'c3', parentId: parent, blocks: text(words) }), tick());
      parent = id;
    }
    const ids = (q: string) => search.search(q).map((h) => h.turnId).sort();
    expect(ids('03/02/2024')).toEqual(['e1', 'e2', 'e3']);
    expect(ids('2024-02-03')).toEqual(['e1', 'e3']);
    expect(ids('2024-03-02')).toEqual(['e2', 'e3']);
    // A day past 12 can only be the day: 13 February, in any order.
    expect(ids('2/13/2024')).toEqual(['e4']);
  });

  // Perf audit: an emoji no message held read every message's text, 220-310 ms at 200,000 turns on each keystroke.
  it('reads only the newest messages for an emoji, and says so where older ones went unread', () => {
    const db = memoryDb();
    const store = new ConversationStore(db);
    const search = new SearchStore(db, { symbolScanRows: 3 });
    store.createConversation('c1', 'Launch 🚀', null, tick());
    for (const [id, words] of [['m1', 'old 🚀 one'], ['m2', 'plain'], ['m3', 'new 🚀 two'], ['m4', 'plain again'], ['m5', 'last 🚀']] as const) {
      store.appendTurn(makeTurn({ id, conversationId: 'c1', blocks: text(words) }), tick());
    }
    // The newest 3 messages read: the two there found, m1 not, and the search says how far it looked.
    expect(search.find('🚀')).toEqual({ hits: [expect.objectContaining({ turnId: 'm5' }), expect.objectContaining({ turnId: 'm3' })], newest: 3 });
    expect(search.find('🦄')).toEqual({ hits: [], newest: 3 });
    // The limit met within them: those are the newest hits whatever is older, so nothing is said.
    expect(search.find('🚀', 2)).toEqual({ hits: [expect.objectContaining({ turnId: 'm5' }), expect.objectContaining({ turnId: 'm3' })] });
    // A title is searched in every conversation; words use the index, all of it.
    expect(search.find('🦄 launch').newest).toBeUndefined();
    expect(search.search('old').map((h) => h.turnId)).toEqual(['m1']);
    // No more messages than are read: all were read.
    expect(new SearchStore(db, { symbolScanRows: 5 }).find('🚀')).toEqual({ hits: [expect.objectContaining({ turnId: 'm5' }), expect.objectContaining({ turnId: 'm3' }), expect.objectContaining({ turnId: 'm1' })] });
  });

  // Perf audit: "C++" asks the index for "c", and where few of the many turns holding "c" hold "C++", every one was read.
  it('reads a literal word in the newest index matches only, and says how many messages that searched', () => {
    const db = memoryDb();
    const store = new ConversationStore(db);
    const search = new SearchStore(db, { literalScanRows: 2 });
    store.createConversation('c1', 'Languages', null, tick());
    for (const [id, words] of [['m1', 'old C++ code'], ['m2', 'some C# code'], ['m3', 'written in C'], ['m4', 'new C++ code'], ['m5', 'plain']] as const) {
      store.appendTurn(makeTurn({ id, conversationId: 'c1', blocks: text(words) }), tick());
    }
    // The newest 2 turns holding "c" (m4, m3) were read: m1 not; the newest 3 messages were searched.
    expect(search.find('C++')).toEqual({ hits: [expect.objectContaining({ turnId: 'm4' })], newest: 3 });
    expect(search.find('C++', 1)).toEqual({ hits: [expect.objectContaining({ turnId: 'm4' })] });
    // A word with no literal is not bounded; with room for every match, all are read.
    const code = search.find('code');
    expect([code.newest, code.hits.map((h) => h.turnId).sort()]).toEqual([undefined, ['m1', 'm2', 'm4']]);
    const all = new SearchStore(db, { literalScanRows: 4 }).find('C++');
    expect([all.newest, all.hits.map((h) => h.turnId).sort()]).toEqual([undefined, ['m1', 'm4']]);
  });

  // A common word in many chats listed the oldest chats first: its matches tie in bm25, and ties were in no order.
  it('lists messages that tie newest first, and the next ones when asked for more', () => {
    const db = memoryDb();
    const store = new ConversationStore(db);
    const search = new SearchStore(db);
    // 70 chats, oldest first, each asking about the weather in the same words: their ranks tie exactly.
    for (let i = 0; i < 70; i++) {
      store.createConversation(`c${i}`, `Chat ${i}`, null, tick());
      store.appendTurn(makeTurn({ id: `m${i}`, conversationId: `c${i}`, blocks: text('What is the weather like today?') }), tick());
    }
    const newestFirst = (from: number, count: number) => Array.from({ length: count }, (_, i) => `m${from - i}`);
    const first = search.find('weather', 30);
    expect(first.hits.map((h) => h.turnId)).toEqual(newestFirst(69, 30));
    expect(first.more).toBe(true);
    // More: the same 30 first, then the next 30; then the last 10, and no more.
    const next = search.find('weather', 60);
    expect(next.hits.map((h) => h.turnId)).toEqual(newestFirst(69, 60));
    expect(next.more).toBe(true);
    const last = search.find('weather', 90);
    expect(last.hits.map((h) => h.turnId)).toEqual(newestFirst(69, 70));
    expect(last.more).toBeUndefined();
    // A word in few messages still ranks by relevance: twice in a short message before once in a long one.
    store.createConversation('e1', 'Rare', null, tick());
    store.appendTurn(makeTurn({ id: 'r1', conversationId: 'e1', blocks: text('zebra zebra') }), tick());
    store.appendTurn(makeTurn({ id: 'r2', conversationId: 'e1', blocks: text(`zebra ${'and more words '.repeat(20)}`) }), tick());
    expect(search.search('zebra').map((h) => h.turnId)).toEqual(['r1', 'r2']);
  });

  // C++ was found, but its snippet marked only the "C".
  it('marks a word of symbols whole in the snippet', () => {
    const { search, store } = setup();
    store.createConversation('c3', 'Languages', null, tick());
    store.appendTurn(makeTurn({ id: 'p1', conversationId: 'c3', blocks: text('Port this from C++ to C#, please') }), tick());
    expect(search.search('c++').map((h) => h.snippet)).toEqual([`Port this from ${MATCH_START}C++${MATCH_END} to C#, please`]);
  });

  it('quotes every word so FTS operators lose their meaning', () => {
    expect(toFtsQuery('cats OR dogs')).toBe('"cats" "OR" "dogs"*');
    expect(toFtsQuery('say "hi"')).toBe('"say" """hi"""*');
    expect(toFtsQuery('  ?! ')).toBeNull();
  });
});
