import type { Migration } from './types';

/**
 * The attachment names of a turn's blocks, as 0003 indexes them. Copied, not imported: a migration's SQL must stay
 * what it was when it ran, whatever later becomes of 0003's helper.
 */
const NAMES = `COALESCE((
  SELECT group_concat(json_extract(j.value, '$.name'), ' ') FROM json_each(new.blocks) AS j
  WHERE json_extract(j.value, '$.type') = 'attachment'), '')`;

/**
 * The search index follows an answer when it stops streaming, not on every batched write while it streams
 * (issue 20). An FTS5 update re-tokenizes the whole old and new text, so indexing each write of a growing answer
 * cost about 80 % of persisting it (bench/persistence.bench.ts) and grew with the square of its length. A
 * streaming answer is on screen anyway; it becomes searchable when it ends in any way: done, stopped, cut, error,
 * or `interrupted` (settleInterrupted on the next start after a crash). The leaving write is indexed even when
 * it only changes the status.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'search-after-streaming',
  up(db) {
    db.exec(`
      DROP TRIGGER turns_fts_update;
      CREATE TRIGGER turns_fts_update AFTER UPDATE OF text, blocks, status ON turns
      WHEN new.role IN ('user', 'assistant') AND new.status IS NOT 'streaming'
        AND (old.text IS NOT new.text OR old.blocks IS NOT new.blocks OR old.status IS 'streaming') BEGIN
        UPDATE turns_fts SET text = new.text, names = ${NAMES}
        WHERE rowid = (SELECT seq FROM turn_search WHERE turn_id = new.id);
      END;
    `);
  },
};
