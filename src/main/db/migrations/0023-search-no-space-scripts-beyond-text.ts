import type { Migration } from './types';

/** 0013's class: the scripts written without spaces between words (src/shared/cjk.ts is the same). Copied, as a migration's SQL stays as it ran. */
const CLASS = '[\u0e00-\u17ff\u3040-\ud7af]';

/** `value` holds a character of CLASS; the length test first keeps an ASCII text to a few microseconds (as 0012). */
const hasScript = (value: string) => `(length(${value}) <> octet_length(${value}) AND ${value} GLOB '*${CLASS}*')`;

/** As 0012: two line breaks after the text, so every character starts a trigram. */
const padded = (value: string) => `${value} || char(10, 10)`;

/** The reasoning_fts row `seq`, into reasoning_cjk where it holds such a script (read back: its JSON is parsed once). */
const reasoningCjkOf = (seq: string) => `INSERT INTO reasoning_cjk (rowid, reasoning)
  SELECT rowid, ${padded('reasoning')} FROM reasoning_fts WHERE rowid = ${seq} AND ${hasScript('reasoning')};`;

/**
 * Search finds a Chinese, Japanese, Korean, Thai… word inside a sentence of the model's reasoning or of an attached
 * document, as 0012 and 0013 made it find one in a message's text: 0022's reasoning_fts and documents_fts use the
 * unicode61 tokenizer, which makes one token of a whole run of those scripts, so such a word was looked for in the
 * messages' text only (the last closing note). A model asked in Chinese often reasons in Chinese.
 *
 * Two trigram tables beside 0022's, keyed as they are, holding only the rows with a character of those scripts (a
 * trigram index costs several times the text it covers; a Latin-script history is spared it). Reasoning is kept by
 * 0022's triggers, recreated to write both (one trigger per event: two run in no promised order); the documents'
 * text by main as it indexes it (document-search.ts), and it leaves with the last message holding it, as in 0022.
 * The rows written before are added here, read back from 0022's tables (both keep their text).
 */
export const migration0023: Migration = {
  version: 23,
  name: 'search-no-space-scripts-beyond-text',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE reasoning_cjk USING fts5 (reasoning, tokenize = 'trigram remove_diacritics 1');
      CREATE VIRTUAL TABLE documents_cjk USING fts5 (text, tokenize = 'trigram remove_diacritics 1');

      INSERT INTO reasoning_cjk (rowid, reasoning) SELECT rowid, ${padded('reasoning')} FROM reasoning_fts WHERE ${hasScript('reasoning')};
      INSERT INTO documents_cjk (rowid, text) SELECT rowid, ${padded('text')} FROM documents_fts WHERE ${hasScript('text')};

      DROP TRIGGER reasoning_fts_insert;
      CREATE TRIGGER reasoning_fts_insert AFTER INSERT ON turn_search BEGIN
        INSERT INTO reasoning_fts (rowid, reasoning)
          SELECT new.seq, r.text FROM (SELECT COALESCE((
            SELECT group_concat(json_extract(j.value, '$.text'), char(10)) FROM json_each(t.blocks) AS j
            WHERE json_extract(j.value, '$.type') = 'reasoning' AND json_extract(j.value, '$.text') <> ''), '') AS text
            FROM turns t WHERE t.id = new.turn_id AND instr(t.blocks, '"type":"reasoning"') > 0) AS r
          WHERE r.text <> '';
        ${reasoningCjkOf('new.seq')}
      END;

      DROP TRIGGER reasoning_fts_update;
      CREATE TRIGGER reasoning_fts_update AFTER UPDATE OF blocks, status ON turns
      WHEN new.role IN ('user', 'assistant') AND new.status IS NOT 'streaming'
        AND (old.blocks IS NOT new.blocks OR old.status IS 'streaming')
        AND (instr(new.blocks, '"type":"reasoning"') > 0 OR instr(old.blocks, '"type":"reasoning"') > 0) BEGIN
        DELETE FROM reasoning_fts WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = new.id);
        DELETE FROM reasoning_cjk WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = new.id);
        INSERT INTO reasoning_fts (rowid, reasoning)
          SELECT s.seq, r.text FROM turn_search s, (SELECT COALESCE((
            SELECT group_concat(json_extract(j.value, '$.text'), char(10)) FROM json_each(new.blocks) AS j
            WHERE json_extract(j.value, '$.type') = 'reasoning' AND json_extract(j.value, '$.text') <> ''), '') AS text) AS r
          WHERE s.turn_id = new.id AND r.text <> '';
        ${reasoningCjkOf('(SELECT seq FROM turn_search WHERE turn_id = new.id)')}
      END;

      DROP TRIGGER reasoning_fts_delete;
      CREATE TRIGGER reasoning_fts_delete AFTER DELETE ON turn_search BEGIN
        DELETE FROM reasoning_fts WHERE rowid = old.seq;
        DELETE FROM reasoning_cjk WHERE rowid = old.seq;
      END;

      DROP TRIGGER document_search_delete;
      -- BEFORE: the message's own turn_attachments rows are still there to say which documents were its.
      CREATE TRIGGER document_search_delete BEFORE DELETE ON turns WHEN instr(old.blocks, '"attachment"') > 0 BEGIN
        DELETE FROM documents_fts WHERE rowid IN (
          SELECT d.seq FROM turn_attachments a JOIN document_search d ON d.digest = a.digest
          WHERE a.turn_id = old.id AND NOT EXISTS (SELECT 1 FROM turn_attachments o WHERE o.digest = a.digest AND o.turn_id <> old.id));
        DELETE FROM documents_cjk WHERE rowid IN (
          SELECT d.seq FROM turn_attachments a JOIN document_search d ON d.digest = a.digest
          WHERE a.turn_id = old.id AND NOT EXISTS (SELECT 1 FROM turn_attachments o WHERE o.digest = a.digest AND o.turn_id <> old.id));
        DELETE FROM document_search WHERE digest IN (
          SELECT a.digest FROM turn_attachments a
          WHERE a.turn_id = old.id AND NOT EXISTS (SELECT 1 FROM turn_attachments o WHERE o.digest = a.digest AND o.turn_id <> old.id));
      END;
    `);
  },
};
