import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { SearchStore } from '../../../src/main/db/search';
import { makeTurn, memoryDb, migrateTo, tick, userVersion } from './helpers';

const RUNS = JSON.stringify([{ type: 'text', text: 'Let me check' }, { type: 'reasoning', text: 'hmm', origin: 'native' }, { type: 'text', text: 'The weather is sunny' }]);

describe('0021 text runs searched apart', () => {
  it('joins the runs of a turn written before with a line, so words at their edge are found; other rows stay', () => {
    const db = memoryDb(20);
    db.exec(`INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c', 'Chat', 'm', NULL, 1, 5)`);
    const insert = db.prepare(`INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, meta, status, created_at) VALUES (?, 'c', NULL, ?, ?, ?, '{}', 'done', 2)`);
    insert.run('a', 'assistant', RUNS, 'Let me checkThe weather is sunny');
    insert.run('u', 'user', JSON.stringify([{ type: 'text', text: 'one run' }]), 'one run');
    expect(new SearchStore(db).search('check weather')).toEqual([]);
    migrateTo(db, 21);
    expect(userVersion(db)).toBe(21);
    expect(db.prepare('SELECT id, text FROM turns ORDER BY id').all()).toEqual([
      { id: 'a', text: 'Let me check\nThe weather is sunny' },
      { id: 'u', text: 'one run' },
    ]);
    expect(new SearchStore(db).search('check weather').map((h) => h.turnId)).toEqual(['a']);
  });

  it('writes new turns with their runs apart (searchText)', () => {
    const db = memoryDb();
    const store = new ConversationStore(db);
    store.createConversation('c', 'Chat', null, tick());
    store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', role: 'assistant', blocks: JSON.parse(RUNS) }), tick());
    expect(new SearchStore(db).search('check weather').map((h) => h.turnId)).toEqual(['a']);
  });
});
