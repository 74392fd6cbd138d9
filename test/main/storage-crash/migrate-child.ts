/** Child process for the crash test: runs a slow synthetic migration after the real ones until it is killed. */
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from '../../../src/main/db/migrations';
import { openDatabase } from '../../../src/main/db/open-database';
import type { Migration } from '../../../src/main/db/migrations/types';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: migrate-child.ts <dataDir>');
const slow: Migration = {
  version: MIGRATIONS.at(-1)!.version + 1,
  name: 'slow-synthetic',
  up(db) {
    db.exec('CREATE TABLE synthetic (n INTEGER NOT NULL, pad TEXT NOT NULL) STRICT');
    db.exec("UPDATE turns SET text = 'rewritten by the slow migration'");
    const insert = db.prepare('INSERT INTO synthetic VALUES (?, ?)');
    const pad = 'x'.repeat(4000);
    for (let n = 0; ; n++) {
      insert.run(n, pad);
      // Large enough to spill pages to the WAL before the parent kills us.
      if (n === 2000) writeSync(1, 'migrating\n');
    }
  },
};
openDatabase(join(dataDir, 'firebrand.db'), { migrations: [...MIGRATIONS, slow] });
