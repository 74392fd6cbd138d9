import { mkdirSync, readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/main/db/migrations';
import { migrate, openDatabase, openFailure } from '../../../src/main/db/open-database';
import { HOT_SQL } from '../../../src/main/db/conversation-store';
import { SEARCH_SQL, SearchStore } from '../../../src/main/db/search';
import { allowDatePatterns } from '../../../src/main/db/search-hit';
import { CJK_SCAN_SQL, CJK_SEARCH_SQL } from '../../../src/main/db/search-cjk';
import { PENDING_APPROVALS_SQL } from '../../../src/main/db/settle-interrupted';
import { GC_CANDIDATES_SQL } from '../../../src/main/blobs/blob-store';
import { UserFacingError } from '../../../src/main/errors';
import { DraftStore } from '../../../src/main/db/draft-store';
import { memoryDb, migrateTo, tempDir, userVersion } from './helpers';

const LATEST = MIGRATIONS.at(-1)!.version;

function insertBase(db: BetterSqlite3.Database): void {
  db.exec(`
    INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c1', 'Old chat', 'm', 't2', 1, 2);
    INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, status, created_at)
      VALUES ('t1', 'c1', NULL, 'user', '[{"type":"text","text":"quokka facts"},{"type":"attachment","id":"${'a'.repeat(64)}","kind":"image","name":"holiday-photo.png","mime":"image/png","size":3}]', 'quokka facts', 'done', 1);
    INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, status, created_at)
      VALUES ('t2', 'c1', 't1', 'assistant', '[{"type":"text","text":"Quokkas smile."}]', 'Quokkas smile.', 'streaming', 2);
    INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, status, created_at)
      VALUES ('t3', 'c1', 't2', 'system', '[{"type":"text","text":"quokka system note"}]', 'quokka system note', 'done', 3);
  `);
}

function plan(db: BetterSqlite3.Database, sql: string, params: unknown = []): string {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[];
  return rows.map((r) => r.detail).join('\n');
}

describe('migration registry', () => {
  it('lists one file per migration, in order, versions 1..N', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    const files = readdirSync(join(__dirname, '../../../src/main/db/migrations')).filter((f) => /^\d{4}-.*\.ts$/.test(f)).sort();
    expect(files.map((f) => `${Number(f.slice(0, 4))}-${f.slice(5, -3)}`)).toEqual(MIGRATIONS.map((m) => `${m.version}-${m.name}`));
  });

  it('makes every ordinary table STRICT', () => {
    const db = memoryDb();
    const tables = db.prepare("SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'turns_fts%'").all() as { name: string; strict: number }[];
    expect(tables.length).toBeGreaterThanOrEqual(7);
    expect(tables.filter((t) => t.strict !== 1)).toEqual([]);
  });

  it('runs all pending migrations in one transaction: a failure leaves the old version', () => {
    const db = memoryDb(1);
    const broken = [...MIGRATIONS.slice(0, 2), { version: 3, name: 'broken', up: () => { throw new Error('boom'); } }];
    expect(() => migrate(db, broken)).toThrow('boom');
    expect(userVersion(db)).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'blobs'").get()).toEqual({ n: 0 });
  });
});

describe('newer database', () => {
  it('is refused with a clear message and left byte-for-byte untouched', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'firebrand.db');
      const raw = new BetterSqlite3(file);
      raw.exec('CREATE TABLE future (x INTEGER) STRICT; INSERT INTO future VALUES (1);');
      raw.pragma(`user_version = ${LATEST + 5}`);
      raw.close();
      const before = readFileSync(file);
      let error: unknown;
      try {
        openDatabase(file);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(UserFacingError);
      expect((error as Error).message).toMatch(/newer version of Firebrand.*left untouched/s);
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(existsSync(`${file}-wal`)).toBe(false);
    } finally {
      cleanup();
    }
  });
});

// Resilience audit R6: a damaged file said only "Firebrand could not start: file is not a database".
describe('damaged database', () => {
  it('is refused with a sentence that names the file and what to do, and left byte-for-byte untouched', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'firebrand.db');
      writeFileSync(file, Buffer.alloc(8192, 0x5a));
      const before = readFileSync(file);
      expect(() => openDatabase(file)).toThrow(UserFacingError);
      expect(() => openDatabase(file)).toThrow(
        `The conversation database ${file} cannot be read: it is damaged, or not a Firebrand database (file is not a database). ` +
          'It was left untouched: move it aside, with any firebrand.db-wal and firebrand.db-shm beside it, to start with an empty one, or put back a copy you kept.',
      );
      expect(readFileSync(file).equals(before)).toBe(true);
    } finally {
      cleanup();
    }
  });
});

// Resilience audit R6: a data folder it cannot write in said only "Firebrand could not start: unable to open database file".
describe('database that cannot be opened', () => {
  it('says which file and folder, and what to do', () => {
    const { dir, cleanup } = tempDir();
    try {
      // A folder where the file should be: SQLite cannot open it, as in a read-only or foreign data folder.
      const file = join(dir, 'firebrand.db');
      mkdirSync(file);
      expect(() => openDatabase(file)).toThrow(UserFacingError);
      expect(() => openDatabase(file)).toThrow(
        `Firebrand cannot open ${file} for writing (unable to open database file): its data folder ${dir} may be read-only, full, or not writable by this user. ` +
          'Make it writable, or start Firebrand with another data folder (--data-dir in serve mode).',
      );
    } finally {
      cleanup();
    }
  });
});

// Durability audit: an update on a full disk said "Firebrand could not start: database or disk is full", and a disk
// too full for SQLite's -shm file only "disk I/O error", which reads as a failing disk.
describe('database on a full disk', () => {
  it('an update whose migration cannot be written says the disk is full, and leaves the database at its version', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'firebrand.db');
      const old = openDatabase(file);
      insertBase(old);
      old.close();
      // A migration that needs more room than is left: the disk "fills" at SQLite's page limit.
      const hungry = { version: LATEST + 1, name: 'hungry', up: (db: BetterSqlite3.Database) => {
        db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 2}`);
        db.exec('CREATE TABLE filler (x TEXT) STRICT');
        for (let i = 0; i < 100; i++) db.prepare('INSERT INTO filler VALUES (hex(randomblob(4000)))').run();
      } };
      const err = (() => {
        try {
          openDatabase(file, { migrations: [...MIGRATIONS, hungry] });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(UserFacingError);
      expect((err as Error).message).toBe(
        `The disk that holds Firebrand’s data folder ${dir} is full, so Firebrand cannot open its conversations (database or disk is full). ` +
          'Nothing in them was changed: free some space on that disk, then start Firebrand again.',
      );
      const db = openDatabase(file);
      expect(userVersion(db)).toBe(LATEST);
      expect(db.prepare("SELECT text FROM turns WHERE id = 't1'").get()).toEqual({ text: 'quokka facts' });
      db.close();
    } finally {
      cleanup();
    }
  });

  it('an I/O error while opening, with the disk full, says so; with room left it stays what SQLite said', () => {
    const shm = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_SHMSIZE' });
    expect(openFailure('/data/firebrand.db', shm, () => 0)?.message).toMatch(/^The disk that holds Firebrand’s data folder \/data is full/);
    expect(openFailure('/data/firebrand.db', shm, () => 50 * 1024 * 1024)).toBeUndefined();
  });
});

describe('0001 initial', () => {
  it('creates conversations, turns and settings from an empty database, with the status CHECK', () => {
    const db = memoryDb(0);
    migrateTo(db, 1);
    expect(userVersion(db)).toBe(1);
    insertBase(db);
    expect(() => db.exec("UPDATE turns SET status = 'bogus' WHERE id = 't1'")).toThrow(/CHECK/);
    expect(() => db.exec("UPDATE turns SET created_at = 'soon' WHERE id = 't1'")).toThrow(/cannot store TEXT/);
  });
});

describe('0002 blobs and steps', () => {
  it('keeps version-1 rows and adds blobs, request bodies and steps', () => {
    const db = memoryDb(1);
    insertBase(db);
    migrateTo(db, 2);
    expect(db.prepare('SELECT id, text, status FROM turns ORDER BY created_at').all()).toEqual([
      { id: 't1', text: 'quokka facts', status: 'done' },
      { id: 't2', text: 'Quokkas smile.', status: 'streaming' },
      { id: 't3', text: 'quokka system note', status: 'done' },
    ]);
    db.exec(`INSERT INTO blobs VALUES ('${'a'.repeat(64)}', 3, 'image/png', 5);
      INSERT INTO request_bodies VALUES ('${'b'.repeat(64)}', '[]', 0, 5);
      INSERT INTO steps (id, turn_id, conversation_id, step_index, request_digest, dialect, endpoint, model, created_at)
        VALUES ('s1', 't2', 'c1', 0, '${'b'.repeat(64)}', 'ollama', 'http://x/api/chat', 'm', 5);`);
    db.exec("DELETE FROM conversations WHERE id = 'c1'");
    expect(db.prepare('SELECT count(*) AS n FROM steps').get()).toEqual({ n: 0 });
  });
});

describe('0003 search', () => {
  it('indexes the user and assistant turns written before it, with attachment names', () => {
    const db = memoryDb(2);
    insertBase(db);
    migrateTo(db, 3);
    const search = new SearchStore(db);
    expect(search.search('quokka').map((h) => h.turnId).sort()).toEqual(['t1', 't2']);
    expect(search.search('holiday').map((h) => h.turnId)).toEqual(['t1']);
  });
});

describe('0010 turn attachments', () => {
  it('lists the attachments of the turns written before it, and none of a turn that only mentions the word', () => {
    const db = memoryDb(9);
    insertBase(db);
    db.exec(`INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, status, created_at)
      VALUES ('t4', 'c1', 't3', 'user', '[{"type":"text","text":"an \\"attachment\\""}]', 'an "attachment"', 'done', 4);`);
    migrateTo(db, 10);
    expect(db.prepare('SELECT turn_id, digest FROM turn_attachments').all()).toEqual([{ turn_id: 't1', digest: 'a'.repeat(64) }]);
  });
});

describe('0011 request bodies follow their steps', () => {
  it('sweeps the bodies no step used once, then removes a body with the last step that used it', () => {
    const db = memoryDb(10);
    insertBase(db);
    const body = (d: string) => db.prepare("INSERT INTO request_bodies (digest, template, size, created_at) VALUES (?, '[]', 2, 1)").run(d.repeat(64));
    const step = (id: string, d: string) =>
      db.prepare("INSERT INTO steps (id, turn_id, conversation_id, step_index, request_digest, dialect, endpoint, model, created_at) VALUES (?, 't2', 'c1', 0, ?, 'ollama', 'x', 'm', 1)").run(id, d.repeat(64));
    body('a');
    body('b');
    body('c');
    db.prepare("INSERT INTO request_body_blobs (body_digest, blob_digest) VALUES (?, ?)").run('b'.repeat(64), 'f'.repeat(64));
    step('s1', 'b');
    step('s2', 'b');
    step('s3', 'c');
    migrateTo(db, 11);
    const bodies = () => (db.prepare('SELECT digest FROM request_bodies ORDER BY digest').all() as { digest: string }[]).map((r) => r.digest[0]);
    expect(bodies()).toEqual(['b', 'c']);
    db.prepare("DELETE FROM steps WHERE id = 's1'").run();
    expect(bodies()).toEqual(['b', 'c']);
    db.prepare("DELETE FROM steps WHERE id = 's2'").run();
    expect(bodies()).toEqual(['c']);
    expect(db.prepare('SELECT count(*) AS n FROM request_body_blobs').get()).toEqual({ n: 0 });
    // A deleted conversation takes its steps, and they their bodies.
    db.prepare("DELETE FROM conversations WHERE id = 'c1'").run();
    expect(bodies()).toEqual([]);
  });
});

describe('0012 search CJK', () => {
  it('indexes the CJK turns written before it by trigrams, and keeps both indexes from then on', () => {
    const db = memoryDb(11);
    insertBase(db);
    const turn = (id: string, parent: string, role: string, body: string, blocks = `[{"type":"text","text":"${body}"}]`) =>
      db.prepare("INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, status, created_at) VALUES (?, 'c1', ?, ?, ?, ?, 'done', 4)").run(id, parent, role, blocks, body);
    turn('t4', 't3', 'user', '東京の天気は晴れです');
    turn('t5', 't4', 'assistant', 'A photo', `[{"type":"text","text":"A photo"},{"type":"attachment","id":"${'b'.repeat(64)}","kind":"image","name":"富士山の写真.png","mime":"image/png","size":3}]`);
    turn('t6', 't5', 'system', '天気 system note');
    migrateTo(db, 12);
    expect(userVersion(db)).toBe(12);
    // Only the user and assistant turns with a CJK character (in their text or an attachment's name).
    expect((db.prepare('SELECT s.turn_id AS id FROM turns_cjk f JOIN turn_search s ON s.seq = f.rowid ORDER BY id').all() as { id: string }[]).map((r) => r.id)).toEqual(['t4', 't5']);
    const search = new SearchStore(db);
    expect(search.search('天気').map((h) => h.turnId)).toEqual(['t4']);
    expect(search.search('晴れです').map((h) => h.turnId)).toEqual(['t4']);
    expect(search.search('山の写真').map((h) => h.turnId)).toEqual(['t5']);
    // The Latin index is as it was, and both follow the turns written after.
    expect(search.search('quokka').map((h) => h.turnId).sort()).toEqual(['t1', 't2']);
    turn('t7', 't5', 'user', '大阪の天気 and wombats');
    expect(search.search('大阪').map((h) => h.turnId)).toEqual(['t7']);
    expect(search.search('wombats').map((h) => h.turnId)).toEqual(['t7']);
    db.prepare("DELETE FROM conversations WHERE id = 'c1'").run();
    expect(db.prepare('SELECT (SELECT count(*) FROM turns_cjk) AS cjk, (SELECT count(*) FROM turns_fts) AS fts, (SELECT count(*) FROM turn_search) AS seqs').get()).toEqual({ cjk: 0, fts: 0, seqs: 0 });
  });
});

describe('0013 search in more scripts without spaces', () => {
  it('adds the Thai and Khmer turns written before it to the trigram index, once, and keeps adding them', () => {
    const db = memoryDb(12);
    insertBase(db);
    const turn = (id: string, parent: string, role: string, body: string) =>
      db.prepare("INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, status, created_at) VALUES (?, 'c1', ?, ?, ?, ?, 'done', 4)").run(id, parent, role, JSON.stringify([{ type: 'text', text: body }]), body);
    turn('t4', 't3', 'user', 'ภาษาไทยง่ายนิดเดียว');
    turn('t5', 't4', 'assistant', 'ភាសាខ្មែរស្រួលណាស់');
    turn('t6', 't5', 'user', '東京の天気は晴れです');
    turn('t7', 't6', 'assistant', 'Ça va très bien');
    const search = new SearchStore(db);
    // Before 0013: a Thai word inside a sentence is not found (one unicode61 token for the whole run).
    expect(search.search('ง่าย')).toEqual([]);
    migrateTo(db, 13);
    expect(userVersion(db)).toBe(13);
    const indexed = () => (db.prepare('SELECT s.turn_id AS id FROM turns_cjk f JOIN turn_search s ON s.seq = f.rowid ORDER BY id').all() as { id: string }[]).map((r) => r.id);
    // The Japanese turn was there already and is not added twice; accented Latin stays out.
    expect(indexed()).toEqual(['t4', 't5', 't6']);
    const after = new SearchStore(db);
    expect(after.search('ง่าย').map((h) => h.turnId)).toEqual(['t4']);
    expect(after.search('ស្រួល').map((h) => h.turnId)).toEqual(['t5']);
    expect(after.search('天気').map((h) => h.turnId)).toEqual(['t6']);
    turn('t8', 't7', 'user', 'ພາສາລາວງ່າຍ and wombats');
    expect(after.search('ລາວ').map((h) => h.turnId)).toEqual(['t8']);
    expect(after.search('wombats').map((h) => h.turnId)).toEqual(['t8']);
    db.prepare("UPDATE turns SET text = 'plain now', blocks = '[]' WHERE id = 't4'").run();
    expect(after.search('ง่าย')).toEqual([]);
  });
});

describe('0014 tool runs', () => {
  it('keeps the rows written before it, and a step marked while its tools run goes with its turn', () => {
    const db = memoryDb(13);
    insertBase(db);
    migrateTo(db, 14);
    expect(userVersion(db)).toBe(14);
    expect(db.prepare('SELECT id FROM turns ORDER BY id').all()).toEqual([{ id: 't1' }, { id: 't2' }, { id: 't3' }]);
    db.prepare("INSERT INTO tool_runs (turn_id, started_at) VALUES ('t2', 5)").run();
    expect(() => db.prepare("INSERT INTO tool_runs (turn_id, started_at) VALUES ('nope', 5)").run()).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM conversations WHERE id = 'c1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM tool_runs').get()).toEqual({ n: 0 });
  });
});

describe('0019 draft settings', () => {
  it("keeps the drafts written before it, with no settings, and holds a new chat's settings on its row", () => {
    const db = memoryDb(18);
    insertBase(db);
    db.exec(`
      INSERT INTO drafts (key, text, attachments, updated_at) VALUES ('', 'A new question', '[]', 1);
      INSERT INTO drafts (key, text, attachments, updated_at) VALUES ('c1', 'Half a thought', '[]', 2);
    `);
    migrateTo(db, 19);
    expect(userVersion(db)).toBe(19);
    expect(new DraftStore(db).list()).toEqual([
      { conversationId: null, text: 'A new question', attachments: [] },
      { conversationId: 'c1', text: 'Half a thought', attachments: [] },
    ]);
    db.prepare(`UPDATE drafts SET settings = '{"systemPrompt":"Be brief.","think":null,"tools":false}' WHERE key = ''`).run();
    expect(new DraftStore(db).list()[0]).toEqual({ conversationId: null, text: 'A new question', attachments: [], settings: { systemPrompt: 'Be brief.', think: null, tools: false } });
  });
});

describe('hot queries (EXPLAIN QUERY PLAN)', () => {
  const db = memoryDb();
  it('lists conversations by recency through its index, without sorting', () => {
    const p = plan(db, HOT_SQL.conversationsByRecency, { limit: 50 });
    expect(p).toContain('USING INDEX conversations_by_recency');
    expect(p).not.toContain('TEMP B-TREE');
  });
  it("reads the list's next page as a range of that index, without sorting or scanning from the start", () => {
    const p = plan(db, HOT_SQL.conversationsBefore, { updatedAt: 5, id: 'c9', limit: 50 });
    expect(p).toMatch(/SEARCH conversations USING INDEX conversations_by_recency \(updated_at<\?\)/);
    expect(p).not.toContain('TEMP B-TREE');
  });
  it('finds approval cards left pending, at every start, through their partial index, not by reading every turn', () => {
    const p = plan(db, PENDING_APPROVALS_SQL);
    expect(p).toMatch(/SCAN turns USING INDEX turns_pending_approvals/);
  });
  it("finds the blobs no turn references through turn_attachments' index, not by reading every turn's blocks", () => {
    const p = plan(db, GC_CANDIDATES_SQL, [1, 1, '[]']);
    expect(p).toMatch(/SEARCH turn_attachments USING COVERING INDEX turn_attachments_by_digest \(digest=\?\)/);
    expect(p).toMatch(/SEARCH request_body_blobs USING COVERING INDEX request_body_blobs_by_blob \(blob_digest=\?\)/);
    expect(p).toMatch(/SEARCH draft_attachments USING COVERING INDEX draft_attachments_digest \(digest=\?\)/);
    expect(p).not.toMatch(/SCAN (turns|request_body_blobs|draft_attachments)/);
  });
  it("reads a conversation's turns through its index", () => {
    const p = plan(db, HOT_SQL.turnsOfConversation, ['c1']);
    expect(p).toMatch(/SEARCH turns USING INDEX turns_by_conversation \(conversation_id=\?\)/);
  });
  it("finds a turn's siblings through the parent index, not by scanning the conversation", () => {
    const p = plan(db, HOT_SQL.siblingsOf, { parent: 't1', conversation: 'c1' });
    expect(p).toMatch(/SEARCH turns USING INDEX turns_by_parent \(parent_id=\?\)/);
  });
  it('searches through the FTS index and joins by keys', () => {
    // Its check of a date with a month's name asks REGEXP, which a SearchStore gives its database.
    allowDatePatterns(db);
    const p = plan(db, SEARCH_SQL, { query: '"x"', snippetQuery: '"x"', literals: '[]', limit: 5, window: 100, from: 0 });
    // Stage 1 walks the newest matches in rowid order; stage 2 (snippets) scans only the kept rows' rowid range.
    expect(p).toMatch(/MATERIALIZE recent\nSCAN turns_fts VIRTUAL TABLE INDEX \d+:M\d*>/);
    expect(p).toMatch(/SCAN turns_fts VIRTUAL TABLE INDEX \d+:M\d*></);
    expect(p).toContain('SEARCH s USING INTEGER PRIMARY KEY');
    expect(p).toMatch(/SEARCH t USING INDEX sqlite_autoindex_turns_1 \(id=\?\)/);
    expect(p).toMatch(/SEARCH c USING INDEX sqlite_autoindex_conversations_1 \(id=\?\)/);
  });
  it('searches CJK through the trigram index, newest first, and joins the kept rows by keys', () => {
    const p = plan(db, CJK_SEARCH_SQL, { query: '"天気は"', short: '[]', limit: 5, window: 100 });
    // The MATCH walks the newest matches (no sort of every match); the kept rows' text is read by rowid.
    expect(p).toMatch(/CO-ROUTINE recent\nSCAN turns_cjk VIRTUAL TABLE INDEX \d+:M/);
    expect(p).toMatch(/SCAN top\n.*SCAN f VIRTUAL TABLE INDEX \d+:=/s);
    expect(p).toContain('SEARCH s USING INTEGER PRIMARY KEY');
    expect(p).toMatch(/SEARCH t USING INDEX sqlite_autoindex_turns_1 \(id=\?\)/);
    expect(p).toMatch(/SEARCH c USING INDEX sqlite_autoindex_conversations_1 \(id=\?\)/);
    expect(p).not.toMatch(/SCAN turns_fts|SCAN (t|c|s)\b/);
  });
  it('scans only the trigram table, newest first, for words shorter than a trigram', () => {
    const p = plan(db, CJK_SCAN_SQL, { short: '["天"]', limit: 5 });
    expect(p).toMatch(/MATERIALIZE top\nSCAN turns_cjk VIRTUAL TABLE INDEX \d+:/);
    expect(p).not.toContain('TEMP B-TREE FOR ORDER BY\nSCAN turns_cjk');
    expect(p).toContain('SEARCH s USING INTEGER PRIMARY KEY');
    expect(p).not.toMatch(/SCAN turns_fts|SCAN turns\b|SCAN (t|c|s)\b/);
  });
});
