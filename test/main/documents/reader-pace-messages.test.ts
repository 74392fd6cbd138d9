/**
 * The runner tells a reader at work when an answer starts and stops streaming (the reader then pauses more, or
 * not at all: src/main/documents/reading-pace.ts), and a job starts at the pace of the moment. A fake reader
 * records what it is sent; the chat side is the real services against an Ollama replay.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionRunner } from '../../../src/main/documents/extraction-runner';
import type { ReaderChannel, ReaderReply, ReaderSpawner, ToReader } from '../../../src/main/documents/reader-protocol';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import { ollama, settle, tempServices } from '../integration/helpers';

interface FakeReader {
  sent: ToReader[];
  answer: (reply: ReaderReply) => void;
}

function fakeReaders(): { spawner: ReaderSpawner; readers: FakeReader[] } {
  const readers: FakeReader[] = [];
  const spawner: ReaderSpawner = () => {
    const replies: ((reply: ReaderReply) => void)[] = [];
    const exits: (() => void)[] = [];
    const reader: FakeReader = { sent: [], answer: (reply) => replies.forEach((r) => r(reply)) };
    readers.push(reader);
    const channel: ReaderChannel = {
      pid: undefined,
      send: (message) => void reader.sent.push(message),
      onReply: (listener) => void replies.push(listener),
      onExit: (listener) => void exits.push(() => listener({ why: 'killed', outOfMemory: false })),
      hold: () => undefined,
      kill: () => exits.forEach((e) => e()),
    };
    return channel;
  };
  return { spawner, readers };
}

const doc: ReaderReply = { ok: true, doc: { format: 'text', text: 'read' } };
const paces = (r: FakeReader) => r.sent.flatMap((m) => ('t' in m && m.t === 'pace' ? [m.answering] : []));
const jobs = (r: FakeReader) => r.sent.flatMap((m) => ('kind' in m ? [m.answering] : []));

describe('the reading pace, runner to reader', () => {
  it('tells a reader at work when an answer starts and ends, once each; a job sent meanwhile starts at that pace', async () => {
    const { spawner, readers } = fakeReaders();
    const runner = new ExtractionRunner({ concurrency: 2 }, spawner);
    const first = runner.run('text', new Uint8Array([104, 105]), 'a.txt');
    await expect.poll(() => readers.length).toBe(1);
    runner.setAnswering(true);
    runner.setAnswering(true);
    const second = runner.run('text', new Uint8Array([104, 105]), 'b.txt');
    await expect.poll(() => readers.length).toBe(2);
    expect(jobs(readers[0]!)).toEqual([false]);
    expect(paces(readers[0]!)).toEqual([true]);
    expect(jobs(readers[1]!)).toEqual([true]);
    readers[0]!.answer(doc);
    await first;
    // The first reader is idle now: it hears of the change with its next job, not before.
    runner.setAnswering(false);
    expect(paces(readers[0]!)).toEqual([true]);
    expect(paces(readers[1]!)).toEqual([false]);
    const third = runner.run('text', new Uint8Array([104, 105]), 'c.txt');
    await expect.poll(() => jobs(readers[0]!)).toEqual([false, false]);
    readers[0]!.answer(doc);
    readers[1]!.answer(doc);
    expect(await Promise.all([second, third])).toEqual([doc, doc]);
    await runner.close();
  });
});

describe('the reading pace, chat to reader', () => {
  let replay: ReplayServer;
  beforeAll(async () => {
    replay = await startReplayServer(ollama());
  });
  afterAll(() => replay.close());
  let cleanup: (() => void) | undefined;
  afterEach(() => cleanup?.());

  it('a document being read when an answer starts streaming is told so, and told again when the answer ends', async () => {
    const { spawner, readers } = fakeReaders();
    const t = tempServices(replay, { documentReader: spawner });
    cleanup = t.cleanup;
    const h = t.services.handlers;
    const block = await h['attachments:add']({ name: 'notes.pdf', mime: 'application/pdf', dataBase64: Buffer.from('%PDF-1.7\n').toString('base64') });
    const inspected = h['attachments:inspect']({ block, model: 'llama3.2:3b' });
    await expect.poll(() => readers.length).toBe(1);
    expect(jobs(readers[0]!)).toEqual([false]);

    replay.setRoutes(ollama([{ method: 'POST', path: '/api/chat', body: ollamaChatStream(['Hel', 'lo']), chunk: 'lines', holdAfterChunks: 1 }]));
    const sent = await h['chat:send']({ conversationId: null, text: 'Hi', model: 'llama3.2:3b' });
    await expect.poll(() => replay.held).toBe(1);
    expect(paces(readers[0]!)).toEqual([true]);
    replay.release();
    await settle(t.services, sent.conversationId);
    expect(paces(readers[0]!)).toEqual([true, false]);

    readers[0]!.answer({ ok: true, doc: { format: 'pdf', pages: ['page one'] } });
    await inspected;
  });
});
