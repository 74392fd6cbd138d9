import type { Migration } from './types';

/**
 * Drafts kept in the database (they lived in the tab's sessionStorage, so closing the window or quitting lost what
 * the user had typed and attached). One row per conversation (`key` its id), and `''` for a new chat's. A draft's
 * attachments are listed in draft_attachments so the blob collector keeps their bytes (GC_CANDIDATES_SQL) for as
 * long as the draft holds them, not only for the hour's grace. A conversation deleted for good takes its draft.
 */
export const migration0018: Migration = {
  version: 18,
  name: 'drafts',
  up(db) {
    db.exec(`
      CREATE TABLE drafts (
        key TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        attachments TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE draft_attachments (
        key TEXT NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (key, digest)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX draft_attachments_digest ON draft_attachments(digest);
      CREATE TRIGGER drafts_go_with_conversation AFTER DELETE ON conversations BEGIN
        DELETE FROM drafts WHERE key = old.id;
        DELETE FROM draft_attachments WHERE key = old.id;
      END;
    `);
  },
};
