import type { Migration } from './types';

/** The attachment names of a turn's blocks, space-separated; `blocks` is the JSON column of the row named. */
const names = (row: 'new' | 'old') => `COALESCE((
  SELECT group_concat(json_extract(j.value, '$.name'), ' ') FROM json_each(${row}.blocks) AS j
  WHERE json_extract(j.value, '$.type') = 'attachment'), '')`;

/**
 * Full-text search over user text, answers and attachment names (DESIGN.md §6).
 *
 * Why a stored (not external-content) FTS table keyed by `turn_search.seq`: `turns` has a TEXT primary key, so
 * its implicit rowid may change on VACUUM and cannot key an index; `seq` is an INTEGER PRIMARY KEY, which is
 * stable (no foreign key on it: the delete trigger owns its rows). Triggers keep the index in step with every path that writes turns, so no caller can forget it.
 * Only user and assistant turns are indexed: system cards and tool results are not what people search for.
 */
export const migration0003: Migration = {
  version: 3,
  name: 'search',
  up(db) {
    db.exec(`
      CREATE TABLE turn_search (
        seq INTEGER PRIMARY KEY,
        turn_id TEXT NOT NULL UNIQUE
      ) STRICT;

      -- prefix: results follow typing (the last word is a prefix query); short prefixes need their own index.
      CREATE VIRTUAL TABLE turns_fts USING fts5 (text, names, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');

      -- The hidden rank column orders by bm25 with attachment names weighing double: a name match is deliberate.
      INSERT INTO turns_fts (turns_fts, rank) VALUES ('rank', 'bm25(1.0, 2.0)');

      CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns WHEN new.role IN ('user', 'assistant') BEGIN
        INSERT INTO turn_search (turn_id) VALUES (new.id);
        INSERT INTO turns_fts (rowid, text, names) VALUES (last_insert_rowid(), new.text, ${names('new')});
      END;

      CREATE TRIGGER turns_fts_update AFTER UPDATE OF text, blocks ON turns
      WHEN new.role IN ('user', 'assistant') AND (old.text IS NOT new.text OR old.blocks IS NOT new.blocks) BEGIN
        UPDATE turns_fts SET text = new.text, names = ${names('new')}
        WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = new.id);
      END;

      CREATE TRIGGER turns_fts_delete BEFORE DELETE ON turns BEGIN
        DELETE FROM turns_fts WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = old.id);
        DELETE FROM turn_search WHERE turn_id = old.id;
      END;
    `);
    // Backfill what earlier versions wrote, in creation order so older turns get smaller seqs.
    db.exec(`
      INSERT INTO turn_search (turn_id)
        SELECT id FROM turns WHERE role IN ('user', 'assistant') ORDER BY created_at, id;
      INSERT INTO turns_fts (rowid, text, names)
        SELECT s.seq, t.text, ${names('new').replaceAll('new.', 't.')} FROM turn_search s JOIN turns t ON t.id = s.turn_id;
    `);
  },
};
