import type { Migration } from './types';

/** Model aliases (named presets, optionally materialized as an Ollama model) and one context window per model. */
export const migration0004: Migration = {
  version: 4,
  name: 'models-and-aliases',
  up(db) {
    db.exec(`
      CREATE TABLE model_aliases (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        connection_id TEXT NOT NULL,
        model TEXT NOT NULL,
        system_prompt TEXT NOT NULL DEFAULT '',
        parameters TEXT NOT NULL DEFAULT '{}',
        think_mode TEXT NOT NULL DEFAULT 'off' CHECK (think_mode IN ('off', 'on', 'low', 'medium', 'high')),
        context_window INTEGER,
        materialized_digest TEXT,
        status TEXT NOT NULL DEFAULT 'not-materialized' CHECK (status IN ('not-materialized', 'in-sync', 'changed', 'missing')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE model_context_windows (
        connection_id TEXT NOT NULL,
        model TEXT NOT NULL,
        context_window INTEGER NOT NULL CHECK (context_window > 0),
        source TEXT NOT NULL CHECK (source IN ('recommended', 'user')),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (connection_id, model)
      ) STRICT;
    `);
  },
};
