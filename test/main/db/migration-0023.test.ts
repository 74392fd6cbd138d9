import { describe, expect, it } from 'vitest';
import { SearchStore } from '../../../src/main/db/search';
import { memoryDb, migrateTo, userVersion } from './helpers';

const DOC = 'd'.repeat(64);
const LATIN = 'e'.repeat(64);
const attachment = (id: string, name: string) => ({ type: 'attachment', id, kind: 'document', name, mime: 'application/pdf', size: 1 });

describe('0023 a CJK word found in the reasoning and documents written before', () => {
  it('indexes the reasoning and the documents main had read before the upgrade', () => {
    const db = memoryDb(22);
    db.exec(`INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c', 'Chat', 'm', NULL, 1, 5)`);
    const insert = db.prepare(`INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, meta, status, created_at) VALUES (?, 'c', NULL, ?, ?, ?, '{}', 'done', ?)`);
    insert.run('u', 'user', JSON.stringify([{ type: 'text', text: 'Read these' }, attachment(DOC, '報告.pdf'), attachment(LATIN, 'report.pdf')]), 'Read these', 2);
    insert.run('a', 'assistant', JSON.stringify([{ type: 'reasoning', text: '用户想知道利润率。', origin: 'native' }, { type: 'text', text: 'Done.' }]), 'Done.', 3);
    const kept: Record<string, string> = { [DOC]: '第三四半期の売上は地域別に伸びた。', [LATIN]: 'Quarterly revenue by region' };
    // Main read both documents under 0022.
    new SearchStore(db, { documentText: (block) => kept[block.id] }).search('revenue');
    expect(new SearchStore(db).search('利润率')).toEqual([]);

    migrateTo(db, 23);
    expect(userVersion(db)).toBe(23);
    const search = new SearchStore(db, { documentText: (block) => kept[block.id] });
    expect(search.search('利润率').map((h) => [h.turnId, h.where])).toEqual([['a', { kind: 'reasoning' }]]);
    expect(search.search('売上').map((h) => [h.turnId, h.where])).toEqual([['u', { kind: 'file', name: '報告.pdf' }]]);
    // Only the rows with such a script were copied.
    expect(db.prepare('SELECT count(*) FROM documents_cjk').pluck().get()).toBe(1);
    expect(search.search('revenue').map((h) => h.where)).toEqual([{ kind: 'file', name: 'report.pdf' }]);
  });
});
