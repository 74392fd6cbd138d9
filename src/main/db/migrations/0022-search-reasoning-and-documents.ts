import type { Migration } from './types';

/** The reasoning runs of the row named, a line between them; '' where it has none (read as 0021 reads text runs). */
const reasoning = (row: string) => `COALESCE((
  SELECT group_concat(json_extract(j.value, '$.text'), char(10)) FROM json_each(${row}.blocks) AS j
  WHERE json_extract(j.value, '$.type') = 'reasoning' AND json_extract(j.value, '$.text') <> ''), '')`;

/** The row's blocks may hold reasoning: a substring test before any JSON is parsed (as 0010 tests attachments). */
const mayReason = (row: string) => `instr(${row}.blocks, '"type":"reasoning"') > 0`;

/** The attachment `digest` of turn `turn` is a document or a text file (not an image) in a message search reads. */
const isDocumentOf = (turn: string, digest: string) => `EXISTS (
  SELECT 1 FROM turns t, json_each(t.blocks) AS j
  WHERE t.id = ${turn} AND t.role IN ('user', 'assistant')
    AND json_extract(j.value, '$.type') = 'attachment' AND json_extract(j.value, '$.id') = ${digest}
    AND json_extract(j.value, '$.kind') IN ('document', 'text'))`;

/**
 * Search reads the model's reasoning and the text of attached documents (search audit): a phrase from an attached
 * "q3-report.pdf", or one the model wrote while it thought, found nothing, though the user had read both in the chat.
 *
 * Reasoning: an index of its own (reasoning_fts), keyed by turn_search.seq as turns_fts is, so a hit in the answer's
 * text and one only in its reasoning are told apart and ranked apart (search.ts). Kept by triggers on turn_search,
 * whose rows the triggers of 0013 write and delete for every turn search reads, so those stay as they are; the update
 * follows 0007's rule (a streaming answer is indexed when it ends). The rows written before are added here.
 *
 * Documents: their text is not in the database (DESIGN.md §9: extracted once, kept beside the original in the blob
 * store), so SQL cannot read it. document_search lists each document or text file a message holds, once per content
 * (a file attached to ten messages is indexed once); `read` is 0 until main has put its text in documents_fts
 * (document-search.ts: in the background from the start, and before each search). Listed by a trigger on
 * turn_attachments (0010), and for the messages written before, here. Its text leaves the index with the last message
 * that holds it: a deleted chat's documents must not stay readable in firebrand.db.
 */
export const migration0022: Migration = {
  version: 22,
  name: 'search-reasoning-and-documents',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE reasoning_fts USING fts5 (reasoning, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');

      CREATE TRIGGER reasoning_fts_insert AFTER INSERT ON turn_search BEGIN
        INSERT INTO reasoning_fts (rowid, reasoning)
          SELECT new.seq, r.text FROM (SELECT ${reasoning('t')} AS text FROM turns t WHERE t.id = new.turn_id AND ${mayReason('t')}) AS r
          WHERE r.text <> '';
      END;

      CREATE TRIGGER reasoning_fts_update AFTER UPDATE OF blocks, status ON turns
      WHEN new.role IN ('user', 'assistant') AND new.status IS NOT 'streaming'
        AND (old.blocks IS NOT new.blocks OR old.status IS 'streaming') AND (${mayReason('new')} OR ${mayReason('old')}) BEGIN
        DELETE FROM reasoning_fts WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = new.id);
        INSERT INTO reasoning_fts (rowid, reasoning)
          SELECT s.seq, r.text FROM turn_search s, (SELECT ${reasoning('new')} AS text) AS r
          WHERE s.turn_id = new.id AND r.text <> '';
      END;

      CREATE TRIGGER reasoning_fts_delete AFTER DELETE ON turn_search BEGIN
        DELETE FROM reasoning_fts WHERE rowid = old.seq;
      END;

      INSERT INTO reasoning_fts (rowid, reasoning)
        SELECT r.seq, r.text FROM (SELECT s.seq AS seq, ${reasoning('t')} AS text FROM turn_search s JOIN turns t ON t.id = s.turn_id WHERE ${mayReason('t')}) AS r
        WHERE r.text <> '';

      CREATE TABLE document_search (
        seq INTEGER PRIMARY KEY,
        digest TEXT NOT NULL UNIQUE,
        read INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX document_search_unread ON document_search (seq) WHERE read = 0;

      CREATE VIRTUAL TABLE documents_fts USING fts5 (text, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');

      CREATE TRIGGER document_search_insert AFTER INSERT ON turn_attachments WHEN ${isDocumentOf('new.turn_id', 'new.digest')} BEGIN
        INSERT OR IGNORE INTO document_search (digest) VALUES (new.digest);
      END;

      -- BEFORE: the message's own turn_attachments rows are still there to say which documents were its.
      CREATE TRIGGER document_search_delete BEFORE DELETE ON turns WHEN instr(old.blocks, '"attachment"') > 0 BEGIN
        DELETE FROM documents_fts WHERE rowid IN (
          SELECT d.seq FROM turn_attachments a JOIN document_search d ON d.digest = a.digest
          WHERE a.turn_id = old.id AND NOT EXISTS (SELECT 1 FROM turn_attachments o WHERE o.digest = a.digest AND o.turn_id <> old.id));
        DELETE FROM document_search WHERE digest IN (
          SELECT a.digest FROM turn_attachments a
          WHERE a.turn_id = old.id AND NOT EXISTS (SELECT 1 FROM turn_attachments o WHERE o.digest = a.digest AND o.turn_id <> old.id));
      END;

      INSERT OR IGNORE INTO document_search (digest)
        SELECT a.digest FROM turn_attachments a JOIN turns t ON t.id = a.turn_id
        WHERE ${isDocumentOf('a.turn_id', 'a.digest')}
        ORDER BY t.created_at, t.id;
    `);
  },
};
