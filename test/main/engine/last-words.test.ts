/**
 * The end of an answer on its way to the page (bench/latency): main saves the step and the turn when the stream
 * ends, and the answer's last words used to wait for that, held with the saved turn, so at 1,000 tokens/s the last
 * tokens of every answer reached the screen about a frame after the others. The page now has them first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventChannel } from '../../../src/shared/ipc';
import type { StreamPart } from '../../../src/shared/parts';
import { batchEvents } from '../../../src/main/ipc/event-batch';
import { createServices, type Services } from '../../../src/main/services';
import { ollamaRoutes } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

let replay: ReplayServer;
let dir: string;
let services: Services | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-last-words-'));
});
afterEach(async () => {
  services?.close();
  services = undefined;
  await replay.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("an answer's last words", () => {
  it('reach the page before the answer is saved, even when a fast stream has them waiting for the next send', async () => {
    // 60 tokens a millisecond apart: the page's sends are rationed (event-batch.ts), so the last ones are held.
    const tokens = Array.from({ length: 60 }, (_, i) => ` w${i}`);
    replay = await startReplayServer(ollamaRoutes(tokens, { delayMs: 1 }));
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, chat: { titles: false } });
    const reader = new Database(join(dir, 'firebrand.db'), { readonly: true });
    try {
      /** For each send to the page that carried the answer's end: the answer's row as saved at that moment. */
      const savedWhenEndSent: string[] = [];
      const sent: { channel: EventChannel; payload: unknown }[] = [];
      const page = batchEvents((channel, payload) => {
        sent.push({ channel, payload });
        if (channel !== 'chat:turn-parts') return;
        const { turnId, parts } = payload as { turnId: string; parts: StreamPart[] };
        if (!parts.some((p) => p.type === 'finish')) return;
        const row = reader.prepare('SELECT status FROM turns WHERE id = ?').get(turnId) as { status: string } | undefined;
        savedWhenEndSent.push(row?.status ?? 'none');
      });
      services.hub.connect(page.event);
      await services.handlers['chat:send']({ conversationId: null, text: 'Count for me', model: 'llama3.2:3b' });
      await expect.poll(() => services!.chat.activeCount, { timeout: 30_000 }).toBe(0);
      await expect.poll(() => sent.some((e) => e.channel === 'chat:turn-saved'), { timeout: 30_000 }).toBe(true);
      // The page had every word, and the end, while the row still read "streaming"; the saved turn came after.
      expect(savedWhenEndSent).toEqual(['streaming']);
      const words = sent.flatMap((e) => (e.channel === 'chat:turn-parts' ? (e.payload as { parts: StreamPart[] }).parts : [])).map((p) => (p.type === 'text-delta' ? p.delta : '')).join('');
      expect(words).toBe(tokens.join(''));
      const channels = sent.map((e) => e.channel);
      expect(channels.lastIndexOf('chat:turn-parts')).toBeLessThan(channels.indexOf('chat:turn-saved'));
    } finally {
      reader.close();
    }
  });
});
