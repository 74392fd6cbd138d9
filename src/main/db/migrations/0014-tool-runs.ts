import type { Migration } from './types';

/**
 * The steps whose tools are running now (durability audit): a step's results are written together, in one tool
 * turn, once its last tool returns. When Firebrand was killed while a tool ran (a slow fetch, an MCP tool), the
 * step reloaded with its calls answered by nothing: each card said "Waiting for the result…" for good. A row here
 * is written before a step's tools run and removed once their tool turn is written, so the next start finds the
 * steps a crash left unanswered without reading every turn (src/main/db/settle-interrupted.ts).
 */
export const migration0014: Migration = {
  version: 14,
  name: 'tool-runs',
  up(db) {
    db.exec(`
      CREATE TABLE tool_runs (
        turn_id TEXT PRIMARY KEY REFERENCES turns (id) ON DELETE CASCADE,
        started_at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
