import type { Migration } from './types';

/**
 * A conversation's own identity layer (DESIGN.md §2: app default → alias → conversation): its system prompt and
 * think mode (NULL: not set, the alias or the composer decides). Also makes alias `connection_id` name a
 * connection: 0004's writers stored the Ollama address there, which is the built-in `ollama` connection.
 */
export const migration0005: Migration = {
  version: 5,
  name: 'conversation-settings',
  up(db) {
    db.exec(`
      ALTER TABLE conversations ADD COLUMN system_prompt TEXT NOT NULL DEFAULT '';
      ALTER TABLE conversations ADD COLUMN think TEXT CHECK (think IN ('off', 'on', 'low', 'medium', 'high'));
      UPDATE model_aliases SET connection_id = 'ollama' WHERE connection_id LIKE 'http://%' OR connection_id LIKE 'https://%';
    `);
  },
};
