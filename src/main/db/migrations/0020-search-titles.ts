import type { Migration } from './types';

/**
 * Search finds a conversation by its title (search audit): a chat renamed "Quarterly taxes" was listed under that
 * title and "taxes" found nothing, as only the turns were indexed. Titles get an index of their own, tokenized as
 * turns_fts is (0003), kept by triggers on every path that writes a conversation. Keyed as 0003 keys turns: by an
 * INTEGER PRIMARY KEY of a table of its own, since the implicit rowid of `conversations` (a TEXT key) may change on
 * VACUUM. A title is a few words, so the index is small (10,000 titles: well under a megabyte).
 */
export const migration0020: Migration = {
  version: 20,
  name: 'search-titles',
  up(db) {
    db.exec(`
      CREATE TABLE conversation_search (
        seq INTEGER PRIMARY KEY,
        conversation_id TEXT NOT NULL UNIQUE
      ) STRICT;

      CREATE VIRTUAL TABLE titles_fts USING fts5 (title, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');

      CREATE TRIGGER titles_fts_insert AFTER INSERT ON conversations BEGIN
        INSERT INTO conversation_search (conversation_id) VALUES (new.id);
        INSERT INTO titles_fts (rowid, title) VALUES (last_insert_rowid(), new.title);
      END;

      CREATE TRIGGER titles_fts_update AFTER UPDATE OF title ON conversations WHEN old.title IS NOT new.title BEGIN
        UPDATE titles_fts SET title = new.title WHERE rowid = (SELECT seq FROM conversation_search WHERE conversation_id = new.id);
      END;

      CREATE TRIGGER titles_fts_delete BEFORE DELETE ON conversations BEGIN
        DELETE FROM titles_fts WHERE rowid = (SELECT seq FROM conversation_search WHERE conversation_id = old.id);
        DELETE FROM conversation_search WHERE conversation_id = old.id;
      END;

      INSERT INTO conversation_search (conversation_id) SELECT id FROM conversations ORDER BY created_at, id;
      INSERT INTO titles_fts (rowid, title)
        SELECT s.seq, c.title FROM conversation_search s JOIN conversations c ON c.id = s.conversation_id;
    `);
  },
};
