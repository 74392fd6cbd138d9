/**
 * Durability audit: every request of a chat carries its whole history, and each body was stored whole, so a
 * 200-message chat's request records took 17 MB. Bodies are now cut into content-defined chunks stored once
 * (migration 0015); these tests hold the rebuilt bytes exact and the chunks shared, and gone with their last body.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { chunkEnds, CHUNK_MAX_BYTES, CHUNK_MIN_BYTES } from '../../../src/main/db/content-chunks';
import { sha256Hex } from '../../../src/main/db/request-body';
import { StepStore } from '../../../src/main/db/step-store';
import { makeTurn, memoryDb, text, tick } from './helpers';

const IMG_A = Buffer.from(Array.from({ length: 6000 }, (_, i) => (i * 7) % 256));
const IMG_B = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 13 + 5) % 256));
const BLOBS = new Map([[sha256Hex(IMG_A), IMG_A], [sha256Hex(IMG_B), IMG_B]]);

function setup() {
  const db = memoryDb();
  for (const [d, b] of BLOBS) db.prepare('INSERT INTO blobs VALUES (?, ?, ?, ?)').run(d, b.length, 'image/png', 1);
  const store = new ConversationStore(db);
  const steps = new StepStore(db, (d) => BLOBS.get(d));
  return { db, store, steps };
}

/** A chat `id` with one answer turn per request: each step belongs to its own answer, as the engine writes them. */
function chat(s: ReturnType<typeof setup>, id: string, bodies: readonly (string | Buffer)[], attachments: string[] = []): string[] {
  s.store.createConversation(id, id, 'm', tick());
  let parentId: string | null = null;
  return bodies.map((body, i) => {
    const turn = makeTurn({ id: `${id}-a${i}`, conversationId: id, parentId, role: 'assistant', blocks: text(`answer ${i}`) });
    s.store.appendTurn(turn, tick());
    parentId = turn.id;
    s.steps.begin({ id: `${id}-s${i}`, turnId: turn.id, conversationId: id, stepIndex: 0, body, attachments, dialect: 'ollama', endpoint: 'http://h/api/chat', model: 'm', now: tick() });
    return s.steps.get(`${id}-s${i}`)!.requestDigest;
  });
}

/** Words with line breaks and some non-ASCII, like a chat's messages. */
const prose = (seed: number, length: number) => {
  const words = ['the', 'harbour', 'tram', 'pastéis', '東京', 'ภาษา', 'weather', 'and', 'of', '\n', 'Lisbon', 'sunny'];
  let out = '';
  let x = seed;
  while (out.length < length) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += words[x % words.length] + ' ';
  }
  return out;
};

/** The bodies of a chat's requests: each carries every message before it (Ollama's shape). */
function chatBodies(turns: number, opts: { image?: string } = {}): string[] {
  const messages: { role: string; content: string; images?: string[] }[] = [{ role: 'system', content: prose(1, 800) }];
  const bodies: string[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'user', content: prose(i * 2 + 2, 300 + ((i * 397) % 1500)), ...(opts.image && i === 1 ? { images: [opts.image] } : {}) });
    bodies.push(JSON.stringify({ model: 'llava', messages, stream: true, options: { num_ctx: 8192 } }));
    messages.push({ role: 'assistant', content: prose(i * 2 + 3, 500 + ((i * 751) % 3000)) });
  }
  return bodies;
}

const count = (s: ReturnType<typeof setup>, table: string) => (s.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('request bodies in shared chunks', () => {
  it('cuts content into chunks between the minimum and maximum size, at the same places in a longer body', () => {
    const body = Buffer.from(prose(7, 100_000));
    const ends = chunkEnds(body);
    expect(ends.at(-1)).toBe(body.length);
    ends.slice(0, -1).forEach((end, i) => {
      const size = end - (ends[i - 1] ?? 0);
      expect(size).toBeGreaterThanOrEqual(CHUNK_MIN_BYTES);
      expect(size).toBeLessThanOrEqual(CHUNK_MAX_BYTES);
    });
    // Text inserted near the start moves later cuts with the content: all but the first few line up again.
    const longer = chunkEnds(Buffer.concat([Buffer.from('inserted text '), body]));
    const shifted = new Set(longer.map((e) => e - 'inserted text '.length));
    expect(ends.slice(3, -1).every((e) => shifted.has(e))).toBe(true);
  });

  it('property: every body, with or without attachments, rebuilds byte for byte (same sha256)', () => {
    const a64 = IMG_A.toString('base64');
    const b64 = IMG_B.toString('base64');
    const piece = fc.oneof(
      fc.string({ maxLength: 3000 }),
      fc.uint8Array({ maxLength: 5000 }).map((b) => Buffer.from(b).toString('latin1')),
      fc.constantFrom(a64, b64, `data:image/png;base64,${a64}`),
      fc.nat({ max: 20_000 }).map((n) => prose(n, n)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), fc.boolean(), fc.array(fc.nat(), { maxLength: 3 }), (pieces, raw, twice, tails) => {
        // A chat: each later body shares the earlier one's prefix, as a chat's requests do; a body may repeat itself.
        const prefix = pieces.join('').repeat(twice ? 2 : 1);
        const bodies = [prefix, ...tails.map((t) => prefix + prose(t, t % 9000))].map((b) => (raw ? Buffer.from(b, 'latin1') : b));
        const s = setup();
        const digests = chat(s, 'p', bodies, [...BLOBS.keys()]);
        digests.forEach((digest, i) => {
          const rebuilt = s.steps.rehydrateBody(digest)!;
          expect(sha256Hex(rebuilt)).toBe(digest);
          expect(rebuilt.equals(typeof bodies[i] === 'string' ? Buffer.from(bodies[i]) : (bodies[i] as Buffer))).toBe(true);
        });
        // A chunk named twice in one body (repeated pieces) is counted once, and goes with it all the same.
        s.store.deleteConversation('p');
        expect(count(s, 'body_chunks')).toBe(0);
        s.db.close();
      }),
      { numRuns: 150 },
    );
  });

  it("stores a chat's shared history once: storage grows with the chat, not with the square of its length", () => {
    const s = setup();
    const bodies = chatBodies(60);
    const digests = chat(s, 'long', bodies);
    const whole = bodies.reduce((sum, b) => sum + Buffer.byteLength(b), 0);
    const last = Buffer.byteLength(bodies.at(-1)!);
    // Every page the request bodies take: their rows, their chunks, and the indexes of both.
    const stored = (s.db.prepare("SELECT sum(pgsize) AS n FROM dbstat WHERE name LIKE '%request_bod%' OR name LIKE '%body_chunks%'").get() as { n: number }).n;
    // Each request adds its new messages and about one chunk cut anew where the history ends; whole, they were 6.8 MB.
    expect(whole).toBeGreaterThan(6_000_000);
    expect(stored).toBeLessThan(2 * (last + bodies.length * (CHUNK_MIN_BYTES + 4096)));
    expect(s.steps.rehydrateBody(digests.at(-1)!)!.toString('utf8')).toBe(bodies.at(-1));
  });

  it('keeps attachment bytes out of the chunks, as blob references', () => {
    const s = setup();
    const bodies = chatBodies(4, { image: IMG_A.toString('base64') });
    const digests = chat(s, 'photo', bodies, [sha256Hex(IMG_A)]);
    const stored = s.db.prepare('SELECT bytes FROM body_chunks').all() as { bytes: Buffer }[];
    expect(stored.some((c) => c.bytes.toString('latin1').includes(IMG_A.toString('base64').slice(0, 100)))).toBe(false);
    expect(count(s, 'request_body_blobs')).toBe(3);
    digests.forEach((d, i) => expect(s.steps.rehydrateBody(d)!.toString('utf8')).toBe(bodies[i]));
  });

  it("deleting a chat removes the chunks only it used and keeps those another chat's bodies still use", () => {
    const s = setup();
    const kept = chatBodies(8);
    const keptDigests = chat(s, 'kept', kept);
    const afterKept = count(s, 'body_chunks');
    // A chat that starts as the kept one does (a copy of its history), then goes its own way.
    const forked = [...kept.slice(0, 3), ...chatBodies(12).slice(3).map((b) => b.replace('"llava"', '"llava:13b"'))];
    chat(s, 'forked', forked);
    expect(count(s, 'body_chunks')).toBeGreaterThan(afterKept);

    expect(s.store.deleteConversation('forked')).toBe(true);
    expect(count(s, 'body_chunks')).toBe(afterKept);
    keptDigests.forEach((d, i) => expect(s.steps.rehydrateBody(d)!.toString('utf8')).toBe(kept[i]));

    expect(s.store.deleteConversation('kept')).toBe(true);
    expect(count(s, 'request_bodies')).toBe(0);
    expect(count(s, 'body_chunks')).toBe(0);
  });

  it('deleting one turn removes its request bodies and their unshared chunks, and the rest of the chat still rebuilds', () => {
    const s = setup();
    const bodies = chatBodies(6);
    const digests = chat(s, 'c', bodies);
    const bodiesUsing = () => s.db.prepare('SELECT sum(bodies) AS n, count(*) AS chunks FROM body_chunks').get() as { n: number; chunks: number };
    const before = bodiesUsing();
    // The last answer goes (regenerated or deleted): its step and body go, and the chunks only its body had.
    s.db.prepare("DELETE FROM turns WHERE id = 'c-a5'").run();
    expect(count(s, 'request_bodies')).toBe(5);
    expect(bodiesUsing().chunks).toBeLessThan(before.chunks);
    digests.slice(0, 5).forEach((d, i) => expect(s.steps.rehydrateBody(d)!.toString('utf8')).toBe(bodies[i]));
    expect(s.steps.rehydrateBody(digests[5]!)).toBeUndefined();
  });

  it('chunks keep their ids through the compaction of an old database (VACUUM), so every body still rebuilds', () => {
    const s = setup();
    const bodies = chatBodies(6);
    const digests = chat(s, 'gone', bodies.map((b) => b.replace('llava', 'llava:7b')));
    const kept = chat(s, 'kept', bodies);
    s.store.deleteConversation('gone');
    // What compactIfMostlyFree does (src/main/db/free-space.ts): rows are rewritten, and rowids not declared may change.
    s.db.exec('VACUUM');
    kept.forEach((d, i) => expect(s.steps.rehydrateBody(d)!.toString('utf8')).toBe(bodies[i]));
    expect(s.steps.rehydrateBody(digests[0]!)).toBeUndefined();
  });

  it('the same body sent twice (a retry) is stored once and counted once, and goes with its last step', () => {
    const s = setup();
    const [body] = chatBodies(3).slice(-1);
    chat(s, 'c', [body!, body!]);
    expect(count(s, 'request_bodies')).toBe(1);
    expect(s.db.prepare('SELECT DISTINCT bodies FROM body_chunks').all()).toEqual([{ bodies: 1 }]);
    s.db.prepare("DELETE FROM turns WHERE id = 'c-a1'").run();
    expect(count(s, 'body_chunks')).toBeGreaterThan(0);
    s.db.prepare("DELETE FROM turns WHERE id = 'c-a0'").run();
    expect(count(s, 'body_chunks')).toBe(0);
  });

  it('a body stored whole before chunks (0015) still rebuilds, and a new step sending the same body adds no chunks', () => {
    const s = setup();
    const body = chatBodies(3).at(-1)!;
    const digest = sha256Hex(Buffer.from(body));
    s.db.prepare('INSERT INTO request_bodies (digest, template, size, created_at) VALUES (?, ?, ?, 1)').run(digest, JSON.stringify([{ t: body }]), Buffer.byteLength(body));
    chat(s, 'c', [body]);
    expect(count(s, 'body_chunks')).toBe(0);
    expect(s.steps.rehydrateBody(digest)!.toString('utf8')).toBe(body);
    expect(s.store.deleteConversation('c')).toBe(true);
    expect(count(s, 'request_bodies')).toBe(0);
  });
});
