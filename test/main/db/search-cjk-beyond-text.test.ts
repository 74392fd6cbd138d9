import { describe, expect, it } from 'vitest';
import { MATCH_END, MATCH_START } from '../../../src/main/db/search';
import { DOCUMENTS_CJK_SQL, REASONING_CJK_SQL } from '../../../src/main/db/search-cjk-beyond-text';
import type { AttachmentBlock, Block } from '../../../src/shared/turn';
import { beyondTextChats, foundWhere } from './beyond-text-chats';
import { makeTurn, text, tick } from './helpers';

const MEMO = 'a'.repeat(64);
const GUIDE = 'b'.repeat(64);
const memo: AttachmentBlock = { type: 'attachment', id: MEMO, kind: 'document', name: '会議メモ.pdf', mime: 'application/pdf', size: 10 };
const guide: AttachmentBlock = { type: 'attachment', id: GUIDE, kind: 'text', name: 'guide.txt', mime: 'text/plain', size: 10 };

/** What the blob store keeps of each document's text; the memo's phrase far into a long text, as in a real report. */
const KEPT: Record<string, string> = {
  [MEMO]: `${'前置きの文章です。'.repeat(2_000)}来週の予算会議は木曜日に延期されました。${'後書き。'.repeat(500)}`,
  [GUIDE]: 'วิธีติดตั้งโปรแกรมบนเครื่องของคุณ',
};

function setup() {
  return beyondTextChats(
    {
      c1: { title: '会議', message: 'このメモを要約して', files: [memo], reasoning: '用户想要一个摘要。预算会议改到星期四了，这一点最重要。', answer: '要約：会議は木曜日です。' },
      c2: { title: 'Setup', message: 'Install help', file: guide },
    },
    (block) => KEPT[block.id],
  );
}

const found = foundWhere;

// A Chinese, Japanese or Thai word was looked for in the messages' text only: a model asked in Chinese that reasoned
// in Chinese, or a Japanese PDF, could not be searched by a word inside their sentences (the last closing note).
describe('search finds a CJK or Thai word in reasoning and attached documents (migration 0023)', () => {
  it('finds a word inside a sentence of the reasoning, saying so, marked', () => {
    const { search } = setup();
    expect(found(search, '星期四')).toEqual([['a1', 'reasoning']]);
    const [hit] = search.search('星期四');
    expect(hit!.snippet).toContain(`${MATCH_START}星期四${MATCH_END}`);
    // Two words, both inside the sentence; a word of two characters (found through the index's vocabulary).
    expect(found(search, '预算 摘要')).toEqual([['a1', 'reasoning']]);
    expect(found(search, '摘要')).toEqual([['a1', 'reasoning']]);
    expect(found(search, '星期五')).toEqual([]);
  });

  it('finds a word deep inside a long document, at the message holding it, with a short snippet around it', () => {
    const { search } = setup();
    expect(found(search, '延期')).toEqual([['u1', '会議メモ.pdf']]);
    const [hit] = search.search('延期');
    expect(hit!.snippet).toContain(`${MATCH_START}延期${MATCH_END}`);
    expect(hit!.snippet).toMatch(/^….*…$/u);
    expect([...hit!.snippet].length).toBeLessThan(60);
    expect(found(search, 'ติดตั้ง')).toEqual([['u2', 'guide.txt']]);
  });

  it('ranks a hit in the text above one only in reasoning or a document, one hit per message', () => {
    const { search } = setup();
    // 木曜日 is in a1's text and the memo; 会議 in u1's title and text, a1's text and the memo.
    expect(found(search, '木曜日')).toEqual([['a1', 'text'], ['u1', '会議メモ.pdf']]);
  });

  it('follows the answer: indexed when it stops streaming, rewritten, and gone with a deleted chat', () => {
    const { db, store, search } = setup();
    const answer = makeTurn({ id: 'a2', conversationId: 'c1', parentId: 'u1', role: 'assistant', status: 'streaming' });
    store.appendTurn(answer, tick());
    const thinking: Block[] = [{ type: 'reasoning', text: '考虑一下藏红花的预算', origin: 'inline' }, ...text('Here it is.')];
    store.updateTurn({ ...answer, blocks: thinking });
    expect(found(search, '藏红花')).toEqual([]);
    store.updateTurn({ ...answer, blocks: thinking, status: 'done' });
    expect(found(search, '藏红花')).toEqual([['a2', 'reasoning']]);
    store.updateTurn({ ...answer, blocks: text('不再思考了。'), status: 'done' });
    expect(found(search, '藏红花')).toEqual([]);
    expect(found(search, '延期')).toEqual([['u1', '会議メモ.pdf']]);
    store.deleteConversation('c1');
    expect(found(search, '延期')).toEqual([]);
    expect(found(search, '星期四')).toEqual([]);
    // Nothing of the deleted chat stays in the new indexes' rows.
    expect(db.prepare('SELECT count(*) FROM reasoning_cjk').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM documents_cjk').pluck().get()).toBe(1);
    expect(found(search, 'ติดตั้ง')).toEqual([['u2', 'guide.txt']]);
  });

  it('keeps a Latin-script reasoning or document out of the trigram indexes', () => {
    const { db, store, search } = setup();
    store.appendTurn(makeTurn({ id: 'a3', conversationId: 'c2', parentId: 'u2', role: 'assistant', blocks: [{ type: 'reasoning', text: 'Plain English thoughts', origin: 'native' }, ...text('Sure.')] }), tick());
    search.search('anything');
    expect(db.prepare('SELECT count(*) FROM reasoning_cjk').pluck().get()).toBe(1);
    expect(db.prepare('SELECT count(*) FROM documents_cjk').pluck().get()).toBe(2);
    expect(db.prepare('SELECT count(*) FROM reasoning_fts').pluck().get()).toBe(2);
  });

  it('reads the trigram indexes by their MATCH and keys, not every row', () => {
    const { db } = setup();
    const params = { query: '"星期四"', short: '[]', limit: 30, window: 2000 };
    for (const sql of [REASONING_CJK_SQL, DOCUMENTS_CJK_SQL]) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail).join('\n');
      expect(plan).toMatch(/VIRTUAL TABLE INDEX/);
      expect(plan).not.toMatch(/SCAN (t|c|s|a|d)\b/);
    }
  });
});
