import { describe, expect, it } from 'vitest';
import { SearchStore } from '../../../src/main/db/search';
import { memoryDb, migrateTo, userVersion } from './helpers';

const DOC = 'd'.repeat(64);
const IMAGE = 'e'.repeat(64);
const attachment = (id: string, kind: string, name: string) => ({ type: 'attachment', id, kind, name, mime: 'application/octet-stream', size: 1 });

describe('0022 reasoning and attached documents searched', () => {
  it('indexes the reasoning of the turns written before, and lists their documents for main to read', () => {
    const db = memoryDb(21);
    db.exec(`INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c', 'Chat', 'm', NULL, 1, 5)`);
    const insert = db.prepare(`INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, meta, status, created_at) VALUES (?, 'c', NULL, ?, ?, ?, '{}', 'done', ?)`);
    insert.run('u', 'user', JSON.stringify([{ type: 'text', text: 'Read this' }, attachment(DOC, 'document', 'q3-report.pdf'), attachment(IMAGE, 'image', 'chart.png')]), 'Read this', 2);
    insert.run('a', 'assistant', JSON.stringify([{ type: 'reasoning', text: 'The margins look thin', origin: 'native' }, { type: 'text', text: 'Done.' }]), 'Done.', 3);
    insert.run('t', 'tool', JSON.stringify([attachment('f'.repeat(64), 'document', 'tool.pdf')]), '', 4);
    expect(new SearchStore(db).search('margins')).toEqual([]);

    migrateTo(db, 22);
    expect(userVersion(db)).toBe(22);
    const kept: Record<string, string> = { [DOC]: 'Quarterly revenue by region' };
    const search = new SearchStore(db, { documentText: (block) => kept[block.id] });
    // Only a message's document is listed (not its image, nor a tool's file), unread until main reads it.
    expect(db.prepare('SELECT digest, read FROM document_search').all()).toEqual([{ digest: DOC, read: 0 }]);
    expect(search.search('margins').map((h) => [h.turnId, h.where])).toEqual([['a', { kind: 'reasoning' }]]);
    expect(search.search('revenue region').map((h) => [h.turnId, h.where])).toEqual([['u', { kind: 'file', name: 'q3-report.pdf' }]]);
    expect(db.prepare('SELECT read FROM document_search').pluck().all()).toEqual([1]);
    // The rows themselves are as they were.
    expect(db.prepare('SELECT id, text FROM turns ORDER BY id').all()).toEqual([
      { id: 'a', text: 'Done.' },
      { id: 't', text: '' },
      { id: 'u', text: 'Read this' },
    ]);
  });
});
