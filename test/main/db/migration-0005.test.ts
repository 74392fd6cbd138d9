import { describe, expect, it } from 'vitest';
import { ConversationSettingsStore } from '../../../src/main/db/conversation-settings';
import { memoryDb, migrateTo, userVersion } from './helpers';

describe('0005 conversation settings', () => {
  it('keeps conversations (no system prompt, think unset) and makes alias connection ids name a connection', () => {
    const db = memoryDb(4);
    db.exec(`
      INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c1', 'Old chat', 'm', NULL, 1, 2);
      INSERT INTO model_aliases (id, name, connection_id, model, created_at, updated_at) VALUES ('a1', 'coder', 'http://127.0.0.1:11434', 'qwen3:8b', 1, 1);
      INSERT INTO model_aliases (id, name, connection_id, model, created_at, updated_at) VALUES ('a2', 'remote', 'lan-box', 'qwen3:8b', 1, 1);
    `);
    migrateTo(db, 5);
    expect(userVersion(db)).toBe(5);
    expect(db.prepare("SELECT title, system_prompt, think FROM conversations WHERE id = 'c1'").get()).toEqual({ title: 'Old chat', system_prompt: '', think: null });
    expect(db.prepare('SELECT id, connection_id FROM model_aliases ORDER BY id').all()).toEqual([
      { id: 'a1', connection_id: 'ollama' },
      { id: 'a2', connection_id: 'lan-box' },
    ]);
    expect(() => db.exec("UPDATE conversations SET think = 'maybe'")).toThrow(/CHECK/);
    // The store reads the columns of later migrations too (0006: tools).
    migrateTo(db, 6);
    const store = new ConversationSettingsStore(db);
    expect(store.layer('c1')).toBeUndefined();
    expect(store.update('c1', { systemPrompt: 'Be terse.', think: 'high' })).toEqual({ systemPrompt: 'Be terse.', think: 'high', tools: true });
    expect(store.layer('c1')).toEqual({ systemPrompt: 'Be terse.', think: 'high' });
    expect(() => store.update('gone', { systemPrompt: '', think: null })).toThrow(/no longer exists/);
  });
});
