import type { Migration } from './types';

/** The new row's attachment ids, as (turn, digest) rows: what both writing triggers insert. */
const NEW_ATTACHMENTS = `SELECT new.id, json_extract(j.value, '$.id') FROM json_each(new.blocks) AS j
  WHERE json_extract(j.value, '$.type') = 'attachment' AND json_extract(j.value, '$.id') IS NOT NULL`;

/**
 * Which turns hold which attachments, kept by triggers (issue 20). The blob GC (30 s after every start, and after a
 * conversation with attachments is deleted) looked for references by reading every turn's blocks: 160-210 ms of
 * main's thread, blocked, with 200,000 turns, in one transaction while an answer may be streaming. It now looks up
 * this table's index. The triggers stay off the frequent writes of a streaming answer, as the search index does
 * (0007): a turn's attachments are read when it is written other than streaming (its last write, whatever ends it), with a
 * substring search before any JSON is parsed, and no trigger reads the old blocks. A first version that searched
 * the old and new blocks of every write made a long answer's writes 15-30 % slower (measured).
 */
export const migration0010: Migration = {
  version: 10,
  name: 'turn-attachments',
  up(db) {
    db.exec(`
      CREATE TABLE turn_attachments (
        turn_id TEXT NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (turn_id, digest)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX turn_attachments_by_digest ON turn_attachments (digest);

      INSERT OR IGNORE INTO turn_attachments
        SELECT turns.id, json_extract(j.value, '$.id') FROM turns, json_each(turns.blocks) AS j
        WHERE instr(turns.blocks, '"attachment"') > 0
          AND json_extract(j.value, '$.type') = 'attachment' AND json_extract(j.value, '$.id') IS NOT NULL;

      CREATE TRIGGER turn_attachments_insert AFTER INSERT ON turns
      WHEN instr(new.blocks, '"attachment"') > 0 BEGIN
        INSERT OR IGNORE INTO turn_attachments ${NEW_ATTACHMENTS};
      END;
      CREATE TRIGGER turn_attachments_update AFTER UPDATE OF blocks, status ON turns
      WHEN new.status IS NOT 'streaming'
        AND (instr(new.blocks, '"attachment"') > 0 OR EXISTS (SELECT 1 FROM turn_attachments WHERE turn_id = old.id)) BEGIN
        DELETE FROM turn_attachments WHERE turn_id = old.id;
        INSERT OR IGNORE INTO turn_attachments ${NEW_ATTACHMENTS};
      END;
      CREATE TRIGGER turn_attachments_delete AFTER DELETE ON turns BEGIN
        DELETE FROM turn_attachments WHERE turn_id = old.id;
      END;
    `);
  },
};
