import type { Migration } from './types';

/** The first '"type":"text"' of `blocks` is followed by another: the row has two text runs or more (no JSON parsed). */
const TWO_RUNS = `instr(substr(blocks, instr(blocks, '"type":"text"') + 1), '"type":"text"') > 0`;

/**
 * The searched text of a turn written before turn-rows.ts's searchText: its text runs joined with a line between them,
 * where they had been joined end to end ("checkThe": "check weather" found nothing). Only rows with two text runs
 * or more change (read with string functions before any JSON is parsed); the update trigger (0013) indexes them again.
 */
export const migration0021: Migration = {
  version: 21,
  name: 'search-text-runs',
  up(db) {
    db.exec(`
      UPDATE turns SET text = (
        SELECT group_concat(json_extract(j.value, '$.text'), char(10)) FROM json_each(turns.blocks) AS j
        WHERE json_extract(j.value, '$.type') = 'text')
      WHERE role IN ('user', 'assistant') AND ${TWO_RUNS};
    `);
  },
};
