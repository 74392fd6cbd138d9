import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { SearchStore } from '../../../src/main/db/search';
import { memoryDb, migrateTo, userVersion } from './helpers';

describe('0020 search finds titles', () => {
  it('indexes the titles written before, and follows renames and deletes after', () => {
    const db = memoryDb(19);
    db.exec(`INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES
      ('a', 'Quarterly taxes', 'm', NULL, 1, 5), ('b', 'Café plans', 'm', NULL, 2, 6)`);
    migrateTo(db, 20);
    expect(userVersion(db)).toBe(20);
    const search = new SearchStore(db);
    const found = (q: string) => search.search(q).map((h) => [h.conversationId, h.turnId]);
    expect(found('taxes')).toEqual([['a', null]]);
    expect(found('cafe')).toEqual([['b', null]]);
    const store = new ConversationStore(db);
    store.renameConversation('a', 'Holiday ideas');
    expect(found('taxes')).toEqual([]);
    expect(found('holiday')).toEqual([['a', null]]);
    store.deleteConversation('b');
    expect(found('cafe')).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM conversation_search').get()).toEqual({ n: 1 });
  });
});
