/**
 * A user of versions before 0015 has every request body stored whole (17 MB for a 200-message chat); after the
 * update they are cut into shared chunks in the background, each rebuilding the same bytes.
 */
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { BodyRechunker } from '../../../src/main/db/rechunk-bodies';
import { sha256Hex } from '../../../src/main/db/request-body';
import { StepStore } from '../../../src/main/db/step-store';
import { makeTurn, memoryDb, migrateTo, tick } from './helpers';

const IMG = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 11) % 256));
const IMAGE = sha256Hex(IMG);

/** A chat of `n` requests as version 14 stored them: each body whole, its image cut out as a blob segment. */
function oldChat(n: number) {
  const db = memoryDb(14);
  db.prepare("INSERT INTO blobs VALUES (?, ?, 'image/png', 1)").run(IMAGE, IMG.length);
  const store = new ConversationStore(db);
  store.createConversation('c', 'Old', 'm', tick());
  const messages: { role: string; content: string; images?: string[] }[] = [];
  const bodies: string[] = [];
  for (let i = 0; i < n; i++) {
    messages.push({ role: 'user', content: `Question ${i}: ${'how do trams climb the hills of Lisbon? '.repeat(20 + (i % 7))}`, ...(i === 0 ? { images: [IMG.toString('base64')] } : {}) });
    const body = JSON.stringify({ model: 'llava', messages, stream: true });
    bodies.push(body);
    const [before, after] = body.split(IMG.toString('base64'));
    const digest = sha256Hex(Buffer.from(body));
    db.prepare('INSERT INTO request_bodies (digest, template, size, created_at) VALUES (?, ?, ?, 1)').run(digest, JSON.stringify([{ t: before }, { b: IMAGE }, { t: after }]), body.length);
    db.prepare('INSERT INTO request_body_blobs VALUES (?, ?)').run(digest, IMAGE);
    store.appendTurn(makeTurn({ id: `a${i}`, conversationId: 'c', role: 'assistant', blocks: [] }), tick());
    db.prepare("INSERT INTO steps (id, turn_id, conversation_id, step_index, request_digest, dialect, endpoint, model, created_at) VALUES (?, ?, 'c', 0, ?, 'ollama', 'http://h', 'm', 1)").run(`s${i}`, `a${i}`, digest);
    messages.push({ role: 'assistant', content: `Answer ${i}: ${'by cable and by cog, slowly. '.repeat(40 + (i % 5))}` });
  }
  migrateTo(db, 15);
  return { db, store, bodies, steps: new StepStore(db, (d) => (d === IMAGE ? IMG : undefined)) };
}

const progressOf = (db: ReturnType<typeof memoryDb>) => (db.prepare('SELECT after FROM body_rechunk_progress').pluck().get() as number | undefined) ?? null;

const bodyBytes = (db: ReturnType<typeof memoryDb>) =>
  (db.prepare("SELECT (SELECT coalesce(sum(length(template)), 0) FROM request_bodies) + (SELECT coalesce(sum(length(bytes)), 0) FROM body_chunks) AS n").get() as { n: number }).n;

describe('request bodies stored whole before 0015', () => {
  it('are cut into shared chunks a slice at a time, each rebuilding the same bytes, and the walk is not repeated', () => {
    const { db, bodies, steps } = oldChat(30);
    const before = bodyBytes(db);
    const rechunker = new BodyRechunker(db, (d) => (d === IMAGE ? IMG : undefined));
    let slices = 0;
    while (rechunker.slice(0) !== undefined) slices++;
    expect(slices).toBeGreaterThan(1);
    expect(db.prepare('SELECT count(*) AS n FROM body_rechunk_progress').get()).toEqual({ n: 0 });
    expect(bodyBytes(db)).toBeLessThan(before / 3);
    bodies.forEach((b, i) => expect(steps.rehydrateBody(steps.get(`s${i}`)!.requestDigest)!.toString('utf8')).toBe(b));
    // The image stays a blob reference, and the walk, done, does nothing at the next start.
    expect(db.prepare("SELECT count(*) AS n FROM request_bodies WHERE template LIKE '%\"b\":%'").get()).toEqual({ n: 30 });
    expect(new BodyRechunker(db, () => undefined).slice()).toBeUndefined();
  });

  it('leaves a body whole when its blob cannot be read, and the chunks of the others go with their chat', () => {
    const { db, store, bodies, steps } = oldChat(5);
    const unreadable = new BodyRechunker(db, () => undefined);
    while (unreadable.slice() !== undefined);
    expect(db.prepare('SELECT count(*) AS n FROM body_chunks').get()).toEqual({ n: 0 });
    expect(steps.rehydrateBody(steps.get('s4')!.requestDigest)!.toString('utf8')).toBe(bodies[4]);

    db.exec('INSERT INTO body_rechunk_progress (after) VALUES (0)');
    const readable = new BodyRechunker(db, (d) => (d === IMAGE ? IMG : undefined));
    while (readable.slice() !== undefined);
    expect((db.prepare('SELECT count(*) AS n FROM body_chunks').get() as { n: number }).n).toBeGreaterThan(0);
    expect(store.deleteConversation('c')).toBe(true);
    expect(db.prepare('SELECT count(*) AS n FROM body_chunks').get()).toEqual({ n: 0 });
  });

  // Round 6: a slice held main's thread for a whole body at least (19 ms at the median, 47 ms at most for 300 kB
  // bodies), delaying a streaming answer's tokens. A body is now converted in steps, the clock read between them.
  it('stops a slice at its time budget, read from the clock between steps, and at its step count', () => {
    const { db } = oldChat(6);
    let now = 0;
    let reads = 0;
    // Each step "takes" 3 ms: the clock moves 3 at every reading.
    const clock = () => {
      reads++;
      return (now += 3);
    };
    const rechunker = new BodyRechunker(db, (d) => (d === IMAGE ? IMG : undefined), clock);
    reads = 0;
    rechunker.slice(8, 100);
    // Read at the start (3: the budget ends at 11), then after each step: 6, 9, 12, where the slice stops.
    expect(reads).toBe(4);
    // A clock that never moves: the step count ends the slice.
    const frozen = new BodyRechunker(db, (d) => (d === IMAGE ? IMG : undefined), () => 0);
    const before = progressOf(db);
    expect(frozen.slice(8, 2)).toBe(0);
    expect(progressOf(db)).toBe(before);
  });

  it('converts in small slices to exactly what one long pass makes, every body rebuilding its bytes', () => {
    const sliced = oldChat(12);
    const whole = oldChat(12);
    const read = (d: string) => (d === IMAGE ? IMG : undefined);
    let now = 0;
    const slow = new BodyRechunker(sliced.db, read, () => (now += 5));
    let slices = 0;
    while (slow.slice(4, 8) !== undefined) slices++;
    while (new BodyRechunker(whole.db, read, () => 0).slice(Infinity, Infinity) !== undefined);
    expect(slices).toBeGreaterThan(12 * 3);
    const stored = (db: ReturnType<typeof memoryDb>) => ({
      bodies: db.prepare('SELECT digest, template FROM request_bodies ORDER BY digest').all(),
      chunks: db.prepare('SELECT id, digest, bytes, bodies FROM body_chunks ORDER BY id').all(),
    });
    expect(stored(sliced.db)).toEqual(stored(whole.db));
    expect((stored(sliced.db).chunks as unknown[]).length).toBeGreaterThan(0);
    sliced.bodies.forEach((b, i) => expect(sliced.steps.rehydrateBody(sliced.steps.get(`s${i}`)!.requestDigest)!.toString('utf8')).toBe(b));
  });

  it('a body whose chat is deleted between two slices of its conversion is not stored, nor its chunks', () => {
    const { db, store } = oldChat(1);
    const rechunker = new BodyRechunker(db, (d) => (d === IMAGE ? IMG : undefined), () => 0);
    expect(rechunker.slice(8, 2)).toBe(0);
    expect(store.deleteConversation('c')).toBe(true);
    while (rechunker.slice() !== undefined);
    expect(db.prepare('SELECT (SELECT count(*) FROM body_chunks) + (SELECT count(*) FROM request_bodies) AS n').get()).toEqual({ n: 0 });
  });

  it('has nothing to do in a database made new', () => {
    const db = memoryDb();
    expect(db.prepare('SELECT count(*) AS n FROM body_rechunk_progress').get()).toEqual({ n: 0 });
    expect(new BodyRechunker(db, () => undefined).slice()).toBeUndefined();
  });
});
