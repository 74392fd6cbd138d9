/**
 * Issue 15 item 16: a 60 MiB import frame stalled serve mode for seconds, because the frame and then the file
 * were parsed (and every attachment decoded and hashed) on the event loop that carries every other socket and
 * Stop. Now a frame over 1 MiB is parsed in a worker thread, and so is the import file. The test watches the
 * main thread's JSON.parse: nothing of that size may go through it. (How long the loop stalls is a figure for
 * `npm run bench`, not a test.)
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startServe, type RunningServe } from '../../../src/main/serve/serve-server';
import { OFF_THREAD_FRAME_BYTES } from '../../../src/main/serve/serve-socket';
import { createServices, type Services } from '../../../src/main/services';

let dir: string;
let services: Services;
let serve: RunningServe;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-frames-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html>');
  services = createServices({ dataDir: join(dir, 'data'), log: () => {} });
  serve = await startServe({ services, rendererDir: join(dir, 'renderer'), port: 0, log: () => {} });
});
afterAll(async () => {
  await serve.close();
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A real export file of about 60 MiB: a conversation with three 15 MiB PNG attachments. */
function bigExport(): string {
  const blobs: Record<string, { mime: string; size: number; base64: string }> = {};
  const blocks: unknown[] = [{ type: 'text', text: 'Three charts' }];
  for (let i = 0; i < 3; i++) {
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(15 * 1024 * 1024)]);
    const digest = createHash('sha256').update(bytes).digest('hex');
    blobs[digest] = { mime: 'image/png', size: bytes.length, base64: bytes.toString('base64') };
    blocks.push({ type: 'attachment', id: digest, kind: 'image', name: `chart-${i}.png`, mime: 'image/png', size: bytes.length });
  }
  const turn = { id: 'u1', conversationId: 'big', parentId: null, role: 'user', blocks, meta: {}, status: 'done', createdAt: 1 };
  const conversation = { id: 'big', title: 'Big', model: null, activeLeafId: 'u1', createdAt: 1, updatedAt: 1 };
  return JSON.stringify({ format: 'firebrand.conversation', version: 1, exportedAt: 1, conversation, turns: [turn], blobs });
}

describe('a 60 MiB import frame', () => {
  it('is parsed and checked off the event loop, and imports', async () => {
    const text = bigExport();
    expect(text.length).toBeGreaterThan(60 * 1024 * 1024);
    const ws = new WebSocket(`${serve.origin.replace('http', 'ws')}/ipc?token=${serve.token}`, { origin: serve.origin });
    await new Promise<void>((done, fail) => {
      ws.once('open', () => done());
      ws.once('error', fail);
    });
    const answers: { id: number; result: { ok: boolean; value?: { conversationId: string } } }[] = [];
    ws.on('message', (d) => {
      const msg = JSON.parse(d.toString()) as { t: string; id: number; result: { ok: boolean } };
      if (msg.t === 'result') answers.push(msg);
    });
    const frame = JSON.stringify({ t: 'invoke', id: 1, channel: 'conversations:import', payload: { text } });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      ws.send(frame);
      await expect.poll(() => answers.length, { timeout: 120_000 }).toBe(1);
      const onMainThread = parse.mock.calls.map(([arg]) => (typeof arg === 'string' ? arg.length : 0)).filter((n) => n > OFF_THREAD_FRAME_BYTES);
      expect(onMainThread, 'strings over 1 MiB parsed on the main thread').toEqual([]);
    } finally {
      parse.mockRestore();
      ws.close();
    }
    expect(answers[0]?.result).toEqual({ ok: true, value: { conversationId: 'big', title: 'Big', imported: 1, all: false, copies: 0, listedAbove: 0 } });
    const view = await services.handlers['conversations:open']({ conversationId: 'big' });
    expect(view.turns[0]?.blocks.filter((b) => b.type === 'attachment')).toHaveLength(3);
  }, 180_000);
});
