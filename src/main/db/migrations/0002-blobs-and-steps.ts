import type { Migration } from './types';

/**
 * Content-addressed blobs and request records (DESIGN.md §2, §6). A request body is stored once per digest as a
 * template whose attachment payloads are references to blobs, so a replay rebuilds the exact bytes without
 * storing attachment bytes again per step; `request_body_blobs` makes those references visible to GC.
 */
export const migration0002: Migration = {
  version: 2,
  name: 'blobs-and-steps',
  up(db) {
    db.exec(`
      CREATE TABLE blobs (
        digest TEXT PRIMARY KEY CHECK (length(digest) = 64),
        size INTEGER NOT NULL CHECK (size >= 0),
        mime TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE request_bodies (
        digest TEXT PRIMARY KEY CHECK (length(digest) = 64),
        template TEXT NOT NULL,
        size INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE request_body_blobs (
        body_digest TEXT NOT NULL REFERENCES request_bodies (digest) ON DELETE CASCADE,
        blob_digest TEXT NOT NULL,
        PRIMARY KEY (body_digest, blob_digest)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX request_body_blobs_by_blob ON request_body_blobs (blob_digest);

      CREATE TABLE steps (
        id TEXT PRIMARY KEY,
        turn_id TEXT REFERENCES turns (id) ON DELETE CASCADE,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        step_index INTEGER NOT NULL CHECK (step_index >= 0),
        request_digest TEXT NOT NULL REFERENCES request_bodies (digest),
        dialect TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        model TEXT NOT NULL,
        context_window INTEGER,
        token_estimate INTEGER,
        wire_reason TEXT,
        stop TEXT,
        usage TEXT,
        timings TEXT,
        error TEXT,
        created_at INTEGER NOT NULL,
        finished_at INTEGER
      ) STRICT;
      CREATE INDEX steps_by_turn ON steps (turn_id, step_index);
      CREATE INDEX steps_by_conversation ON steps (conversation_id);
      CREATE INDEX steps_by_request ON steps (request_digest);
    `);
  },
};
