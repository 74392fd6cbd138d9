/**
 * Durability audit: a user who has used Firebrand for months updates it. For every schema version this build
 * knows, a data folder is written as that version left it (its migrations only, rows in its columns): chats with
 * branches, an attachment, a tool call and its result, reasoning, an answer the app died in, CJK and Thai text,
 * settings, an alias and a conversation's own settings where the version had them. The current code then opens
 * it through the services, as the app does, and everything must be there, searchable and in use.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AliasStore } from '../../../src/main/aliases/alias-store';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { MIGRATIONS } from '../../../src/main/db/migrations';
import { sha256Hex } from '../../../src/main/db/request-body';
import { StepStore } from '../../../src/main/db/step-store';
import { createServices, type Services } from '../../../src/main/services';
import { turnText, type Block } from '../../../src/shared/turn';
import { migrateTo, tempDir } from './helpers';

const LATEST = MIGRATIONS.at(-1)!.version;
/** A tiny but real PNG (1x1), so the blob store's type check accepts it. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');
const IMAGE = sha256Hex(PNG);
const UNUSED = sha256Hex(Buffer.from('bytes no turn uses'));
/** What the chat's requests sent: a long history (so that it is chunked), the photo inlined as base64. */
const HISTORY = Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i} about Lisbon, trams and pastéis de nata. `.repeat(8) }));
const REQUEST_A2 = JSON.stringify({ model: 'llama3.2:3b', messages: [...HISTORY, { role: 'user', content: 'What is the weather at this harbour?', images: [PNG.toString('base64')] }] });
const REQUEST_A3 = REQUEST_A2.replace(/\]\}$/, ',{"role":"tool","content":"21 degrees, sunny"}]}');

const cleanups: (() => void)[] = [];
let services: Services | undefined;
afterEach(() => {
  services?.close();
  services = undefined;
  cleanups.splice(0).forEach((c) => c());
});

const blocksJson = (blocks: Block[]) => JSON.stringify(blocks);

/** One turn as version `v` wrote it: the columns of 0001, which every later version kept. */
function turn(db: Database, row: { id: string; conv: string; parent: string | null; role: string; blocks: Block[]; status?: string; stop?: string; source?: string; meta?: object; at: number }): void {
  db.prepare(
    `INSERT INTO turns (id, conversation_id, parent_id, role, blocks, text, source, meta, status, stop, model, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.id, row.conv, row.parent, row.role, blocksJson(row.blocks), turnText({ blocks: row.blocks } as never), row.source ?? null, JSON.stringify(row.meta ?? {}), row.status ?? 'done', row.stop ?? null, row.role === 'assistant' ? 'llama3.2:3b' : null, row.at);
}

/** What a user of version `v` had: everything that version could store. */
function fill(db: Database, dataDir: string, v: number): void {
  const conv = db.prepare('INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
  conv.run('trip', 'Trip to Lisbon', 'llama3.2:3b', 'a3', 1000, 2000);
  conv.run('tokyo', '東京', 'llama3.2:3b', 'k2', 3000, 4000);
  const text = (t: string): Block[] => [{ type: 'text', text: t }];
  const photo: Block = { type: 'attachment', id: IMAGE, kind: 'image', name: 'harbour-photo.png', mime: 'image/png', size: PNG.byteLength };
  turn(db, { id: 'u1', conv: 'trip', parent: null, role: 'user', blocks: text('Plan a weekend in Lisbon'), at: 1001 });
  turn(db, { id: 'a1', conv: 'trip', parent: 'u1', role: 'assistant', blocks: [{ type: 'reasoning', text: 'They want trams and pastries.', origin: 'inline' }, ...text('Ride tram 28, eat pastéis de nata.')], stop: 'end_turn', at: 1002 });
  // A regenerated answer: a sibling of a1, the branch the user left.
  turn(db, { id: 'a1b', conv: 'trip', parent: 'u1', role: 'assistant', blocks: text('Visit Belém tower first. ภาษาไทยสวัสดี'), stop: 'end_turn', at: 1003 });
  turn(db, { id: 'u2', conv: 'trip', parent: 'a1', role: 'user', blocks: [...text('What is the weather at this harbour?'), photo], at: 1004 });
  turn(db, {
    id: 'a2', conv: 'trip', parent: 'u2', role: 'assistant', stop: 'tool_use', at: 1005,
    blocks: [{ type: 'tool_call', id: 'call_0', name: 'get_current_weather', state: 'complete', argumentsRaw: '{"location":"Lisbon"}', arguments: { location: 'Lisbon' } }],
  });
  turn(db, { id: 't1', conv: 'trip', parent: 'a2', role: 'tool', blocks: [{ type: 'tool_result', toolCallId: 'call_0', name: 'get_current_weather', content: '21 degrees, sunny', isError: false }], at: 1006 });
  turn(db, { id: 'a3', conv: 'trip', parent: 't1', role: 'assistant', blocks: text('It is 21 degrees and sunny by the Tagus.'), stop: 'end_turn', at: 1007 });
  turn(db, { id: 'k1', conv: 'tokyo', parent: null, role: 'user', blocks: text('東京の天気はどうですか。'), at: 3001 });
  // The app died while this answer streamed.
  turn(db, { id: 'k2', conv: 'tokyo', parent: 'k1', role: 'assistant', blocks: text('今日の東京は晴れ'), status: 'streaming', at: 3002 });
  const setting = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
  setting.run('defaultModel', JSON.stringify('llama3.2:3b'));
  setting.run('theme', JSON.stringify('dark'));

  if (v >= 2) {
    const file = join(dataDir, 'blobs', IMAGE.slice(0, 2), IMAGE.slice(2, 4), IMAGE);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, PNG);
    const unused = join(dataDir, 'blobs', UNUSED.slice(0, 2), UNUSED.slice(2, 4), UNUSED);
    mkdirSync(join(unused, '..'), { recursive: true });
    writeFileSync(unused, 'bytes no turn uses');
    const blob = db.prepare('INSERT INTO blobs (digest, size, mime, created_at) VALUES (?, ?, ?, ?)');
    blob.run(IMAGE, PNG.byteLength, 'image/png', 1004);
    blob.run(UNUSED, 18, 'text/plain', 1004);
    // The request for a2 as versions 2-14 stored it: whole, less the photo (a blob segment).
    const body = sha256Hex(Buffer.from(REQUEST_A2));
    const [before, after] = REQUEST_A2.split(PNG.toString('base64'));
    db.prepare('INSERT INTO request_bodies (digest, template, size, created_at) VALUES (?, ?, ?, ?)').run(body, JSON.stringify([{ t: before }, { b: IMAGE }, { t: after }]), REQUEST_A2.length, 1005);
    db.prepare('INSERT INTO request_body_blobs (body_digest, blob_digest) VALUES (?, ?)').run(body, IMAGE);
    db.prepare(
      `INSERT INTO steps (id, turn_id, conversation_id, step_index, request_digest, dialect, endpoint, model, context_window, token_estimate, wire_reason, stop, created_at, finished_at)
       VALUES ('s1', 'a2', 'trip', 0, ?, 'ollama', 'http://127.0.0.1:11434/api/chat', 'llama3.2:3b', 8192, 120, 'stop', 'tool_use', 1005, 1006)`,
    ).run(body);
  }
  if (v >= 4) {
    db.prepare(
      `INSERT INTO model_aliases (id, name, connection_id, model, system_prompt, parameters, think_mode, context_window, created_at, updated_at)
       VALUES ('al1', 'travel-agent', ?, 'llama3.2:3b', 'You plan trips.', '{"temperature":0.4}', 'off', 8192, 500, 500)`,
    ).run(v === 4 ? 'http://127.0.0.1:11434' : 'ollama');
    db.prepare("INSERT INTO model_context_windows (connection_id, model, context_window, source, updated_at) VALUES ('ollama', 'llama3.2:3b', 16384, 'user', 500)").run();
  }
  if (v >= 15) {
    // The request for a3 as 15 stores it: in chunks, shared with the requests before it.
    new StepStore(db, (d) => (d === IMAGE ? PNG : undefined)).begin({
      id: 's2', turnId: 'a3', conversationId: 'trip', stepIndex: 0, body: REQUEST_A3, attachments: [IMAGE], dialect: 'ollama',
      endpoint: 'http://127.0.0.1:11434/api/chat', model: 'llama3.2:3b', now: 1007,
    });
  }
  if (v >= 5) db.prepare("UPDATE conversations SET system_prompt = 'Answer briefly.', think = 'on' WHERE id = 'trip'").run();
  if (v >= 6) db.prepare("UPDATE conversations SET tools = 0 WHERE id = 'tokyo'").run();
}

/** A data folder as version `v` left it (WAL, as every version opened it). */
function folderAt(v: number): string {
  const { dir, cleanup } = tempDir('firebrand-upgrade-');
  cleanups.push(cleanup);
  const db = new BetterSqlite3(join(dir, 'firebrand.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  migrateTo(db, v);
  db.transaction(() => fill(db, dir, v))();
  db.close();
  return dir;
}

const search = (s: Services, query: string) => (s.handlers['conversations:search']({ query }) as { results: { conversationId: string }[] }).results.map((r) => r.conversationId);

describe.each(MIGRATIONS.map((m) => m.version))('a data folder written at schema version %i, opened by this build', (v) => {
  it('keeps every chat, branch, attachment, call, setting and alias, searchable and in use', async () => {
    const dir = folderAt(v);
    services = createServices({ dataDir: dir, log: () => {}, chat: { titles: false } });
    const s = services;
    expect(s.db.pragma('user_version', { simple: true })).toBe(LATEST);
    expect(s.db.pragma('integrity_check', { simple: true })).toBe('ok');

    const list = await s.handlers['conversations:list']({});
    expect(list.map((c) => c.title)).toEqual(['東京', 'Trip to Lisbon']);

    const trip = await s.handlers['conversations:open']({ conversationId: 'trip' });
    expect(trip.turns.map((t) => t.id)).toEqual(['u1', 'a1', 'u2', 'a2', 't1', 'a3']);
    expect(trip.turns[1]!.blocks[0]).toEqual({ type: 'reasoning', text: 'They want trams and pastries.', origin: 'inline' });
    expect(trip.turns[2]!.blocks[1]).toMatchObject({ type: 'attachment', id: IMAGE, name: 'harbour-photo.png' });
    expect(trip.turns[4]!.blocks[0]).toMatchObject({ type: 'tool_result', toolCallId: 'call_0', content: '21 degrees, sunny' });
    // The branch the user left is still there.
    const other = await s.handlers['conversations:switch-branch']({ turnId: 'a1b' });
    expect(other.turns.map((t) => t.id)).toEqual(['u1', 'a1b']);

    // The answer the app died in reloads as interrupted, with its text.
    const tokyo = await s.handlers['conversations:open']({ conversationId: 'tokyo' });
    expect(tokyo.turns.at(-1)).toMatchObject({ id: 'k2', status: 'interrupted', blocks: [{ type: 'text', text: '今日の東京は晴れ' }] });

    // Searchable: words, a word's start, an attachment's name, CJK, Thai, and the answer the app died in.
    expect(search(s, 'Lisbon')).toContain('trip');
    expect(search(s, 'pastéis')).toContain('trip');
    expect(search(s, 'harbour-photo')).toContain('trip');
    // Inside a run of CJK or Thai (not at a token's start): only the trigram index (0012, 0013) finds these.
    expect(search(s, '天気')).toContain('tokyo');
    expect(search(s, 'ไทย')).toContain('trip');
    expect(search(s, '晴れ')).toContain('tokyo');

    expect(await s.handlers['settings:get']({})).toMatchObject({ defaultModel: 'llama3.2:3b', theme: 'dark' });
    if (v >= 4) {
      expect(new AliasStore(s.db, randomUUID).list()).toEqual([expect.objectContaining({ name: 'travel-agent', connectionId: 'ollama', systemPrompt: 'You plan trips.' })]);
    }
    if (v >= 5) expect(await s.handlers['conversations:get-settings']({ conversationId: 'trip' })).toMatchObject({ systemPrompt: 'Answer briefly.', think: 'on' });
    if (v >= 6) expect(await s.handlers['conversations:get-settings']({ conversationId: 'tokyo' })).toMatchObject({ tools: false });

    // The attachment a message uses is never collected, however old; bytes nothing uses are.
    if (v >= 2) {
      const blobs = new BlobStore(s.db, dir);
      const { removed } = await blobs.gc({ now: Date.now() + 365 * 24 * 3600_000 });
      expect(removed).toEqual([UNUSED]);
      expect(Buffer.from(blobs.read(IMAGE)!).equals(PNG)).toBe(true);
    }

    // Every request record rebuilds the exact bytes it sent, whichever version stored it.
    if (v >= 2) {
      const steps = new StepStore(s.db, (d) => (d === IMAGE ? PNG : undefined));
      const sent = v >= 15 ? [REQUEST_A2, REQUEST_A3] : [REQUEST_A2];
      expect(steps.listForTurn('a2').concat(steps.listForTurn('a3')).map((r) => steps.rehydrateBody(r.requestDigest)?.toString('utf8'))).toEqual(sent);
      if (v >= 15) expect((s.db.prepare('SELECT count(*) AS n FROM body_chunks').get() as { n: number }).n).toBeGreaterThan(0);
    }

    // Deleting a chat leaves nothing of it in search.
    await s.handlers['conversations:delete']({ conversationId: 'tokyo' });
    expect(search(s, '天気')).toEqual([]);
    expect(search(s, 'Lisbon')).toContain('trip');
    // Nor of its request records: their bodies and chunks go with it.
    await s.handlers['conversations:delete']({ conversationId: 'trip' });
    if (v >= 2) expect(s.db.prepare('SELECT count(*) AS n FROM request_bodies').get()).toEqual({ n: 0 });
    expect(s.db.prepare('SELECT count(*) AS n FROM body_chunks').get()).toEqual({ n: 0 });
  });
});
