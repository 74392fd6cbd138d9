import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { memoryDb, migrateTo, userVersion } from './helpers';

describe('0016 conversation deletes', () => {
  it('keeps every chat listed; a chat marked as being deleted is hidden, and its mark goes with it', () => {
    const db = memoryDb(15);
    db.exec(`INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c1', 'One', 'm', NULL, 1, 2), ('c2', 'Two', 'm', NULL, 1, 3)`);
    migrateTo(db, 16);
    expect(userVersion(db)).toBe(16);
    const store = new ConversationStore(db);
    expect(store.listConversations().map((c) => c.id)).toEqual(['c2', 'c1']);

    db.exec("INSERT INTO conversation_deletes (conversation_id) VALUES ('c2')");
    expect(store.listConversations().map((c) => c.id)).toEqual(['c1']);
    expect(store.listConversations({ before: { id: 'c9', updatedAt: 9 } }).map((c) => c.id)).toEqual(['c1']);
    expect(store.getConversation('c2')).toBeUndefined();
    expect(() => db.exec("INSERT INTO conversation_deletes (conversation_id) VALUES ('nope')")).toThrow(/FOREIGN KEY/);
    db.exec("DELETE FROM conversations WHERE id = 'c2'");
    expect(db.prepare('SELECT count(*) AS n FROM conversation_deletes').get()).toEqual({ n: 0 });
  });
});
