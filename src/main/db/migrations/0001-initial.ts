import type { Migration } from './types';

/** Conversations as trees of turns, and settings. */
export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        model TEXT,
        active_leaf_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX conversations_by_recency ON conversations (updated_at DESC);

      CREATE TABLE turns (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        parent_id TEXT REFERENCES turns (id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
        blocks TEXT NOT NULL,
        text TEXT NOT NULL,
        source TEXT,
        meta TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL CHECK (status IN ('streaming', 'done', 'error', 'aborted', 'cut', 'interrupted')),
        stop TEXT,
        wire_reason TEXT,
        usage TEXT,
        model TEXT,
        error TEXT,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX turns_by_conversation ON turns (conversation_id, created_at);
      CREATE INDEX turns_by_parent ON turns (parent_id);
      CREATE INDEX turns_by_status ON turns (status) WHERE status = 'streaming';

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `);
  },
};
