import { describe, expect, it } from 'vitest';
import { MATCH_END, MATCH_START } from '../../../src/main/db/search';
import { DOCUMENT_SEARCH_SQL, REASONING_SEARCH_SQL } from '../../../src/main/db/search-beyond-text';
import type { AttachmentBlock, Block } from '../../../src/shared/turn';
import { beyondTextChats, foundWhere } from './beyond-text-chats';
import { makeTurn, text, tick } from './helpers';

const REPORT = 'a'.repeat(64);
const NOTES = 'b'.repeat(64);
const PHOTO = 'c'.repeat(64);
const report: AttachmentBlock = { type: 'attachment', id: REPORT, kind: 'document', name: 'q3-report.pdf', mime: 'application/pdf', size: 10 };
const notes: AttachmentBlock = { type: 'attachment', id: NOTES, kind: 'text', name: 'notes.txt', mime: 'text/plain', size: 10 };
const photo: AttachmentBlock = { type: 'attachment', id: PHOTO, kind: 'image', name: 'photo.png', mime: 'image/png', size: 10 };

/** What the blob store keeps of each document's text, as AttachmentContent.searchableText gives it. */
const KEPT: Record<string, string | null | undefined> = {
  [REPORT]: 'Revenue grew in the northern region. Churn fell to four percent.',
  [NOTES]: 'Remember the quarterly offsite in Lisbon.',
};

function setup(kept: Record<string, string | null | undefined> = KEPT) {
  const asked: string[] = [];
  const chats = beyondTextChats(
    {
      c1: { title: 'Quarter', message: 'Summarize this please', files: [report, photo], reasoning: 'The user wants a summary; churn matters most to the board.', answer: 'Revenue grew, and churn is down.' },
      c2: { title: 'Trip', message: 'Plan it', file: notes },
    },
    (block) => {
      asked.push(block.id);
      return kept[block.id];
    },
  );
  return { ...chats, asked };
}

const found = foundWhere;

describe('search in reasoning and attached documents (search audit)', () => {
  it('finds a phrase of an attached document, at the message holding it, saying which file', () => {
    const { search } = setup();
    expect(found(search, 'northern region')).toEqual([['u1', 'q3-report.pdf']]);
    expect(found(search, 'lisbon')).toEqual([['u2', 'notes.txt']]);
    const [hit] = search.search('northern');
    expect(hit).toMatchObject({ conversationId: 'c1', title: 'Quarter', where: { kind: 'file', name: 'q3-report.pdf' } });
    // The snippet is the document's, marked where it was found; not the message's text.
    expect(hit!.snippet).toContain(`${MATCH_START}northern${MATCH_END} region`);
    expect(hit!.snippet).not.toContain('Summarize');
  });

  it('finds the reasoning, saying so, and ranks a hit in the text above one only in reasoning or a file', () => {
    const { search } = setup();
    expect(found(search, 'board')).toEqual([['a1', 'reasoning']]);
    expect(search.search('board')[0]!.snippet).toContain(`${MATCH_START}board${MATCH_END}`);
    // "churn" is in a1's text and reasoning (found once, by its text), and in u1's report.
    expect(found(search, 'churn')).toEqual([['a1', 'text'], ['u1', 'q3-report.pdf']]);
    // "revenue" is in a1's text and the report; the text's hit comes first.
    expect(found(search, 'revenue')).toEqual([['a1', 'text'], ['u1', 'q3-report.pdf']]);
  });

  it('reads each document once, follows new messages, and lets go of a deleted chat', () => {
    const { db, store, search, asked } = setup();
    search.search('nothing here');
    search.search('again');
    expect(asked.sort()).toEqual([REPORT, NOTES].sort());
    // The same file attached again is indexed once, found at both messages, newest first.
    store.appendTurn(makeTurn({ id: 'u3', conversationId: 'c2', parentId: 'u2', blocks: [...text('And again'), { ...notes, name: 'notes (1).txt' }] }), tick());
    expect(found(search, 'offsite')).toEqual([['u3', 'notes (1).txt'], ['u2', 'notes.txt']]);
    expect(asked).toHaveLength(2);
    store.deleteConversation('c2');
    expect(found(search, 'offsite')).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM documents_fts').pluck().get()).toBe(1);
    expect(db.prepare('SELECT digest FROM document_search').pluck().all()).toEqual([REPORT]);
  });

  it('waits for a text not read yet, and indexes nothing for one that never will be', () => {
    const kept: Record<string, string | null | undefined> = { [REPORT]: undefined, [NOTES]: null };
    const { search } = setup(kept);
    expect(found(search, 'northern')).toEqual([]);
    // The send read it since.
    kept[REPORT] = KEPT[REPORT];
    expect(found(search, 'northern')).toEqual([['u1', 'q3-report.pdf']]);
  });

  it('keeps reasoning in step with the answer: indexed when it stops streaming, rewritten, deleted', () => {
    const { store, search } = setup();
    const answer = makeTurn({ id: 'a2', conversationId: 'c1', parentId: 'u1', role: 'assistant', status: 'streaming' });
    store.appendTurn(answer, tick());
    const thinking: Block[] = [{ type: 'reasoning', text: 'Consider the saffron budget', origin: 'inline' }, ...text('Here it is.')];
    store.updateTurn({ ...answer, blocks: thinking });
    expect(found(search, 'saffron')).toEqual([]);
    store.updateTurn({ ...answer, blocks: thinking, status: 'done' });
    expect(found(search, 'saffron')).toEqual([['a2', 'reasoning']]);
    store.updateTurn({ ...answer, blocks: text('No more thinking.'), status: 'done' });
    expect(found(search, 'saffron')).toEqual([]);
  });

  it('marks a literal word ("C++") where it is in reasoning', () => {
    const { store, search } = setup();
    store.appendTurn(makeTurn({ id: 'a3', conversationId: 'c2', parentId: 'u2', role: 'assistant', blocks: [{ type: 'reasoning', text: 'Maybe port it to C++ later.', origin: 'native' }, ...text('Sure.')] }), tick());
    const [hit] = search.search('C++');
    expect(hit).toMatchObject({ turnId: 'a3', where: { kind: 'reasoning' } });
    expect(hit!.snippet).toContain(`${MATCH_START}C++${MATCH_END}`);
  });

  // "2024-01-15" found nothing where the reasoning wrote "2024/01/15".
  it('finds a date in reasoning however its numbers are separated, marked whole', () => {
    const { store, search } = setup();
    store.appendTurn(makeTurn({ id: 'a3', conversationId: 'c2', parentId: 'u2', role: 'assistant', blocks: [{ type: 'reasoning', text: 'The deadline was 2024/01/15 then.', origin: 'native' }, ...text('Sure.')] }), tick());
    const [hit, ...rest] = search.search('2024-01-15');
    expect([hit, rest]).toMatchObject([{ turnId: 'a3', where: { kind: 'reasoning' } }, []]);
    expect(hit!.snippet).toContain(`${MATCH_START}2024/01/15${MATCH_END}`);
    expect(search.search('2024-01-16')).toEqual([]);
  });

  // "15.01.2024" found nothing where the reasoning wrote "2024-01-15".
  it('finds a whole date in reasoning written another way, marked as written', () => {
    const { store, search } = setup();
    store.appendTurn(makeTurn({ id: 'a3', conversationId: 'c2', parentId: 'u2', role: 'assistant', blocks: [{ type: 'reasoning', text: 'The deadline was 2024-01-15 then.', origin: 'native' }, ...text('Sure.')] }), tick());
    for (const query of ['15.01.2024', '1/15/2024']) {
      const [hit, ...rest] = search.search(query);
      expect([hit, rest]).toMatchObject([{ turnId: 'a3', where: { kind: 'reasoning' } }, []]);
      expect(hit!.snippet).toContain(`${MATCH_START}2024-01-15${MATCH_END}`);
    }
    expect(search.search('16.01.2024')).toEqual([]);
  });

  // "2024-01-15" found nothing where the reasoning wrote "January 15, 2024", nor "15 Jan 2024" a file's "2024-01-15".
  it('finds a date written with its month\'s name in reasoning, and one in a document by its name, marked as written', () => {
    const { store, search } = setup({ ...KEPT, [NOTES]: 'The offsite is on 2024-01-15 in Lisbon; not 2024 01 15.' });
    store.appendTurn(makeTurn({ id: 'a3', conversationId: 'c2', parentId: 'u2', role: 'assistant', blocks: [{ type: 'reasoning', text: 'The deadline was January 15, 2024 then.', origin: 'native' }, ...text('Sure.')] }), tick());
    expect(found(search, '15.01.2024')).toEqual([['a3', 'reasoning'], ['u2', 'notes.txt']]);
    expect(search.search('2024-01-15').find((h) => h.turnId === 'a3')!.snippet).toContain(`${MATCH_START}January 15, 2024${MATCH_END} then`);
    expect(search.search('15 Jan 2024').find((h) => h.turnId === 'u2')!.snippet).toContain(`${MATCH_START}2024-01-15${MATCH_END} in Lisbon`);
    expect(found(search, 'January 16, 2024')).toEqual([]);
  });

  // "2024-01-15" found nothing where an attached file said "15.01.2024".
  it('finds a whole date in a document written another way, marked as written', () => {
    const { search } = setup({ ...KEPT, [NOTES]: 'The offsite is on 15.01.2024 in Lisbon; not 2024 01 15.' });
    expect(found(search, '2024-01-15')).toEqual([['u2', 'notes.txt']]);
    expect(search.search('01/15/2024')[0]!.snippet).toContain(`${MATCH_START}15.01.2024${MATCH_END} in Lisbon`);
    expect(found(search, '2024-01-16')).toEqual([]);
  });

  it('reads the indexes by their MATCH and keys, not every row', () => {
    const { db } = setup();
    const params = { query: '"churn"*', literals: '[]', limit: 30, window: 2000, from: 0 };
    for (const sql of [REASONING_SEARCH_SQL, DOCUMENT_SEARCH_SQL]) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail).join('\n');
      expect(plan).toMatch(/VIRTUAL TABLE INDEX/);
      expect(plan).not.toMatch(/SCAN (t|c|s|a|d)\b/);
    }
  });
});
