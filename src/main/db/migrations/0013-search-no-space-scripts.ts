import type { Migration } from './types';

/** The attachment names of a turn's blocks, as 0003 indexes them. Copied, not imported: a migration's SQL stays as it ran. */
const names = (row: string) => `COALESCE((
  SELECT group_concat(json_extract(j.value, '$.name'), ' ') FROM json_each(${row}.blocks) AS j
  WHERE json_extract(j.value, '$.type') = 'attachment'), '')`;

/**
 * The characters of the scripts written without spaces between words: 0012's U+3040-U+D7AF (kana, CJK ideographs,
 * Hangul) and now U+0E00-U+17FF, Thai and Lao through Tibetan and Myanmar to Khmer (src/shared/cjk.ts is the same
 * class, which decides the queries this index answers). The blocks between them in that span (Georgian, Ethiopic,
 * Cherokee, Canadian syllabics…) put spaces between words; their turns are indexed too, which costs them index
 * size, not results: a substring search still finds their words. One class of two ranges, not a second GLOB: each
 * GLOB reads the whole text, and this runs on every finished answer that is not plain ASCII.
 */
const CLASS = '[\u0e00-\u17ff\u3040-\ud7af]';

const hasScript = (row: string) => `((length(${row}.text) <> octet_length(${row}.text) AND ${row}.text GLOB '*${CLASS}*')
  OR (instr(${row}.blocks, '"attachment"') > 0 AND ${names(row)} GLOB '*${CLASS}*'))`;

/** As 0012: two line breaks after each column, so every character starts a trigram. */
const padded = (value: string) => `${value} || char(10, 10)`;

/**
 * Search finds Thai, Lao, Khmer, Myanmar and Tibetan words inside a sentence, as 0012 made it find Chinese and
 * Japanese ones: these scripts put no spaces between words either, so unicode61 made one token of a whole run and
 * only its start could be found. Their turns go into 0012's trigram index (turns_cjk, whose name stays), kept by
 * the same triggers with the wider class; the turns written before are added here. A streaming answer's writes stay
 * off both indexes, as since 0007.
 */
export const migration0013: Migration = {
  version: 13,
  name: 'search-no-space-scripts',
  up(db) {
    db.exec(`
      INSERT INTO turns_cjk (rowid, text, names)
        SELECT s.seq, ${padded('t.text')}, ${padded(names('t'))} FROM turn_search s JOIN turns t ON t.id = s.turn_id
        WHERE ${hasScript('t')} AND NOT EXISTS (SELECT 1 FROM turns_cjk WHERE rowid = s.seq);

      DROP TRIGGER turns_fts_insert;
      CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns WHEN new.role IN ('user', 'assistant') BEGIN
        INSERT INTO turn_search (turn_id) VALUES (new.id);
        INSERT INTO turns_fts (rowid, text, names) VALUES (last_insert_rowid(), new.text, ${names('new')});
        INSERT INTO turns_cjk (rowid, text, names)
          SELECT seq, ${padded('new.text')}, ${padded(names('new'))} FROM turn_search WHERE turn_id = new.id AND ${hasScript('new')};
      END;

      DROP TRIGGER turns_fts_update;
      CREATE TRIGGER turns_fts_update AFTER UPDATE OF text, blocks, status ON turns
      WHEN new.role IN ('user', 'assistant') AND new.status IS NOT 'streaming'
        AND (old.text IS NOT new.text OR old.blocks IS NOT new.blocks OR old.status IS 'streaming') BEGIN
        UPDATE turns_fts SET text = new.text, names = ${names('new')}
        WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = new.id);
        DELETE FROM turns_cjk WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = new.id);
        INSERT INTO turns_cjk (rowid, text, names)
          SELECT seq, ${padded('new.text')}, ${padded(names('new'))} FROM turn_search WHERE turn_id = new.id AND ${hasScript('new')};
      END;
    `);
  },
};
