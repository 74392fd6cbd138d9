import type { Migration } from './types';

/**
 * The attachment names of a turn's blocks, as 0003 indexes them, for the row named. Copied, not imported: a
 * migration's SQL must stay what it was when it ran.
 */
const names = (row: string) => `COALESCE((
  SELECT group_concat(json_extract(j.value, '$.name'), ' ') FROM json_each(${row}.blocks) AS j
  WHERE json_extract(j.value, '$.type') = 'attachment'), '')`;

/**
 * The row's text or an attachment name has a character of U+3040-U+D7AF (kana, CJK ideographs, Hangul syllables;
 * src/shared/cjk.ts is the same range, which decides the queries this index answers). GLOB compares code points, at
 * about 16 ns a character for one range; the length test first keeps an ASCII text (most of a Latin-script history)
 * to a few microseconds, and names are read only for a turn with an attachment.
 */
const hasCjk = (row: string) => `((length(${row}.text) <> octet_length(${row}.text) AND ${row}.text GLOB '*[\u3040-\ud7af]*')
  OR (instr(${row}.blocks, '"attachment"') > 0 AND ${names(row)} GLOB '*[\u3040-\ud7af]*'))`;

/**
 * A column's text and two line breaks: every character of the text then starts a trigram, its last ones too, so a
 * word of one or two characters is found as the start of the indexed trigrams (search-cjk.ts). A query word has no
 * line break, so the padding matches no word of its own.
 */
const padded = (value: string) => `${value} || char(10, 10)`;

/**
 * Search finds Chinese and Japanese words inside a sentence (the audit's files #7). These scripts put no spaces
 * between words, so 0003's unicode61 tokenizer makes one token of a whole run ("東京の天気は晴れです") and only
 * its start could be found. A second FTS5 table with the trigram tokenizer (SQLite 3.34+, remove_diacritics 3.45+,
 * octet_length 3.43+; better-sqlite3 bundles 3.53) matches any substring of 3 characters or more, and a shorter word
 * as the start of trigrams (search-cjk.ts).
 *
 * It holds only the turns whose text or attachment names hold a CJK character: a query with one can match no other
 * turn, and a trigram index costs several times the text it covers, which a Latin-script history is spared. It shares
 * turns_fts's keys (turn_search.seq) and is kept by the same triggers, recreated here so that one trigger per event
 * writes both (two triggers on one event run in no promised order, and the seq is made by the insert's). Writes
 * of a streaming answer stay off both indexes (0007): the trigger's condition is unchanged. Measured: the write that
 * ends a 7,200-character answer costs the same for ASCII text, +0.07 ms for accented text and +1.2 ms for Japanese
 * (its trigrams); the backfill reads 200,000 Latin turns in 0.4-0.7 s and indexes 20,000 Japanese ones in 1.4-3 s,
 * but 200,000 Japanese turns in 70 s (+266 MB on 610), once, at the first start: detail=none would build about three
 * times faster and a third smaller, answering by LIKE without bm25 (measured on 20,000), a change left for later.
 */
export const migration0012: Migration = {
  version: 12,
  name: 'search-cjk',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE turns_cjk USING fts5 (text, names, tokenize = 'trigram remove_diacritics 1');
      INSERT INTO turns_cjk (turns_cjk, rank) VALUES ('rank', 'bm25(1.0, 2.0)');

      INSERT INTO turns_cjk (rowid, text, names)
        SELECT s.seq, ${padded('t.text')}, ${padded(names('t'))} FROM turn_search s JOIN turns t ON t.id = s.turn_id WHERE ${hasCjk('t')};

      DROP TRIGGER turns_fts_insert;
      CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns WHEN new.role IN ('user', 'assistant') BEGIN
        INSERT INTO turn_search (turn_id) VALUES (new.id);
        INSERT INTO turns_fts (rowid, text, names) VALUES (last_insert_rowid(), new.text, ${names('new')});
        INSERT INTO turns_cjk (rowid, text, names)
          SELECT seq, ${padded('new.text')}, ${padded(names('new'))} FROM turn_search WHERE turn_id = new.id AND ${hasCjk('new')};
      END;

      DROP TRIGGER turns_fts_update;
      CREATE TRIGGER turns_fts_update AFTER UPDATE OF text, blocks, status ON turns
      WHEN new.role IN ('user', 'assistant') AND new.status IS NOT 'streaming'
        AND (old.text IS NOT new.text OR old.blocks IS NOT new.blocks OR old.status IS 'streaming') BEGIN
        UPDATE turns_fts SET text = new.text, names = ${names('new')}
        WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = new.id);
        DELETE FROM turns_cjk WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = new.id);
        INSERT INTO turns_cjk (rowid, text, names)
          SELECT seq, ${padded('new.text')}, ${padded(names('new'))} FROM turn_search WHERE turn_id = new.id AND ${hasCjk('new')};
      END;

      DROP TRIGGER turns_fts_delete;
      CREATE TRIGGER turns_fts_delete BEFORE DELETE ON turns BEGIN
        DELETE FROM turns_fts WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = old.id);
        DELETE FROM turns_cjk WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = old.id);
        DELETE FROM turn_search WHERE turn_id = old.id;
      END;
    `);
  },
};
