import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/main/db/request-body';
import { StepStore } from '../../../src/main/db/step-store';
import { memoryDb, migrateTo, userVersion } from './helpers';

const step = (id: string, digest: string) =>
  `INSERT INTO steps (id, turn_id, conversation_id, step_index, request_digest, dialect, endpoint, model, created_at) VALUES ('${id}', NULL, 'c1', 0, '${digest}', 'ollama', 'http://h/api/chat', 'm', 1)`;

describe('0015 request body chunks', () => {
  it('keeps bodies stored whole, which still rebuild and go with their steps; new bodies are stored in chunks', () => {
    const db = memoryDb(14);
    const old = `{"model":"m","messages":[{"role":"user","content":"${'an old question '.repeat(200)}"}]}`;
    const oldDigest = sha256Hex(Buffer.from(old));
    db.exec("INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES ('c1', 'Old chat', 'm', NULL, 1, 2)");
    db.prepare('INSERT INTO request_bodies (digest, template, size, created_at) VALUES (?, ?, ?, 1)').run(oldDigest, JSON.stringify([{ t: old }]), old.length);
    db.exec(step('s-old', oldDigest));
    migrateTo(db, 15);
    expect(userVersion(db)).toBe(15);

    const steps = new StepStore(db, () => undefined);
    expect(steps.rehydrateBody(oldDigest)!.toString('utf8')).toBe(old);
    const fresh = old.replace('an old question', 'a new question') + ' ';
    steps.begin({ id: 's-new', turnId: null, conversationId: 'c1', stepIndex: 1, body: fresh, dialect: 'ollama', endpoint: 'http://h/api/chat', model: 'm', now: 2 });
    expect(db.prepare('SELECT count(*) AS n FROM body_chunks').get()).toEqual({ n: 1 });
    expect(steps.rehydrateBody(sha256Hex(Buffer.from(fresh)))!.toString('utf8')).toBe(fresh);

    db.exec("DELETE FROM steps WHERE id = 's-old'");
    expect(db.prepare('SELECT digest FROM request_bodies').all()).toEqual([{ digest: sha256Hex(Buffer.from(fresh)) }]);
    db.exec("DELETE FROM conversations WHERE id = 'c1'");
    expect(db.prepare('SELECT count(*) AS n FROM request_bodies').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM body_chunks').get()).toEqual({ n: 0 });
  });

  it("counts and removes a deleted body's chunks by their ids, not by reading every chunk", () => {
    const db = memoryDb();
    // The statements of the triggers body_chunks_count_bodies and body_chunks_follow_bodies, with the template bound.
    const chunksOf = "SELECT json_extract(value, '$.c') FROM json_each(?) WHERE type = 'object'";
    for (const sql of [`UPDATE body_chunks SET bodies = bodies - 1 WHERE id IN (${chunksOf})`, `DELETE FROM body_chunks WHERE bodies = 0 AND id IN (${chunksOf})`]) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('[{"c":1}]') as { detail: string }[]).map((r) => r.detail).join('\n');
      expect(plan).toMatch(/SEARCH body_chunks USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(plan).not.toMatch(/SCAN body_chunks/);
    }
  });
});
