import { describe, expect, it } from 'vitest';
import { ConversationSettingsStore } from '../../../src/main/db/conversation-settings';
import { memoryDb, migrateTo, userVersion } from './helpers';

describe('0006 conversation tools', () => {
  it('keeps conversations with their settings, tools on; a conversation can then turn them off', () => {
    const db = memoryDb(5);
    db.exec(`INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at, system_prompt, think) VALUES ('c1', 'Old chat', 'm', NULL, 1, 2, 'Be terse.', 'high');`);
    migrateTo(db, 6);
    expect(userVersion(db)).toBe(6);
    expect(db.prepare("SELECT title, system_prompt, think, tools FROM conversations WHERE id = 'c1'").get()).toEqual({ title: 'Old chat', system_prompt: 'Be terse.', think: 'high', tools: 1 });
    expect(() => db.exec('UPDATE conversations SET tools = 2')).toThrow(/CHECK/);
    const store = new ConversationSettingsStore(db);
    expect(store.toolsOn('c1')).toBe(true);
    expect(store.update('c1', { systemPrompt: 'Be terse.', think: 'high', tools: false })).toEqual({ systemPrompt: 'Be terse.', think: 'high', tools: false });
    expect(store.toolsOn('c1')).toBe(false);
    // A caller that does not name `tools` leaves it as it is.
    expect(store.update('c1', { systemPrompt: '', think: null }).tools).toBe(false);
  });
});
