import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { memoryDb, migrateTo, userVersion } from './helpers';

describe('0017 when a leaf was left', () => {
  it('keeps every turn; a switch in a chat from before opens the newest leaf, then the one on screen last', () => {
    const db = memoryDb(16);
    db.exec(`INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c', 'Old', 'm', 'a2', 1, 5)`);
    const insert = db.prepare(`INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, meta, status, created_at) VALUES (?, 'c', ?, ?, '[]', '', '{}', 'done', ?)`);
    insert.run('u', null, 'user', 1);
    insert.run('a1', 'u', 'assistant', 2);
    insert.run('a2', 'u', 'assistant', 3);
    migrateTo(db, 17);
    expect(userVersion(db)).toBe(17);
    expect(db.prepare('SELECT id, left_at FROM turns ORDER BY created_at').all()).toEqual([
      { id: 'u', left_at: null },
      { id: 'a1', left_at: null },
      { id: 'a2', left_at: null },
    ]);
    const store = new ConversationStore(db);
    // Nothing was recorded before: the newest leaf, as before.
    expect(store.switchBranch('u', 10)).toBe('a2');
    expect(store.switchBranch('a1', 11)).toBe('a1');
    expect(store.switchBranch('u', 12)).toBe('a1');
    expect(db.prepare("SELECT left_at FROM turns WHERE id = 'a2'").get()).toEqual({ left_at: 11 });
  });
});
