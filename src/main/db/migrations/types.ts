import type { Database } from 'better-sqlite3';

/** One forward-only schema step; `version` is the `PRAGMA user_version` after it ran. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
