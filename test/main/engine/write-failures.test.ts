/**
 * Issue 15 items 4 and 16: the disk filling up while an answer streams (SQLITE_FULL from the writer's timer,
 * then from the error path's own update) ended the process; a 20 MB answer had no cap. Now the answer ends with
 * a clear status, the process stays up, the final state lands once space is freed, and the next answer works.
 * The disk is "filled" without root by lowering SQLite's max_page_count on the test database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationView, EventChannel } from '../../../src/shared/ipc';
import { turnText, type Turn } from '../../../src/shared/turn';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { MAX_ANSWER_CHARS } from '../../../src/main/engine/run-step';
import { createServices, type Services } from '../../../src/main/services';
import { ollamaChatStream, ollamaRoutes } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

let replay: ReplayServer | undefined;
let afterEachLog: string[] = [];
let services: Services | undefined;
let dir: string | undefined;
afterEach(async (t) => {
  if (t.task.result?.state === 'fail') console.log(afterEachLog.join('\n'));
  services?.close();
  await replay?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  services = undefined;
  replay = undefined;
  dir = undefined;
});

/** The conversation as the database holds it now (the handler answers synchronously). */
const openNow = (s: Services, conversationId: string) => s.handlers['conversations:open']({ conversationId }) as ConversationView;

async function setup(tokens: string[], chat: Parameters<typeof ollamaRoutes>[1] = {}) {
  replay = await startReplayServer([{ method: 'POST', path: '/api/show', body: '{"capabilities":["completion"]}' }, ...ollamaRoutes(tokens, chat)]);
  dir = mkdtempSync(join(tmpdir(), 'firebrand-writes-'));
  const logs: string[] = [];
  services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: (m) => logs.push(m), chat: { titles: false } });
  const events: { channel: EventChannel; payload: unknown }[] = [];
  services.hub.connect((channel, payload) => events.push({ channel, payload }));
  const lastSaved = (id: string): Turn | undefined =>
    events
      .filter((e) => e.channel === 'chat:turn-saved')
      .map((e) => (e.payload as { turn: Turn }).turn)
      .filter((t) => t.id === id)
      .at(-1);
  return { services, events, logs, lastSaved };
}

describe('a full disk while an answer streams', () => {
  it('ends the answer with a clear status, keeps the process up, saves the end once space is freed, then works again', async () => {
    // 600 lines of ~1 KB, streamed over a few seconds: the writer's timer writes several times meanwhile.
    const line = 'All work and no play makes Jack a dull boy. '.repeat(23);
    const { services: s, lastSaved } = await setup(Array.from({ length: 600 }, () => line), { delayMs: 4 });
    const db = s.db;
    const pages = db.pragma('page_count', { simple: true }) as number;
    // Room for the user's turn, the empty answer and the step record, and a little of the answer: then "full".
    db.pragma(`max_page_count = ${pages + 12}`);
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'Write a lot', model: 'llama3.2:3b' });
    const id = sent.assistantTurn.id;
    await expect.poll(() => lastSaved(id)?.status, { timeout: 30_000 }).toBe('error');
    const ended = lastSaved(id) as Turn;
    expect(ended.error).toBe('Disk full: what arrived so far is kept up to the last write. Free some space, then ask again.');
    expect(turnText(ended).length).toBeGreaterThan(0);
    await expect.poll(() => s.chat.activeCount, { timeout: 10_000 }).toBe(0);
    // The end could not be written yet (the row still says "streaming", with what its last write held). A chat
    // opened now (a reload) shows it ended, with all that arrived (round 9: it showed "…" and a Stop that stopped
    // nothing, without the text, until room came back).
    expect(new ConversationStore(db).getTurn(id)?.status).toBe('streaming');
    const shown = openNow(s, sent.conversationId).turns.at(-1) as Turn;
    expect([shown.status, shown.error, turnText(shown) === turnText(ended)]).toEqual(['error', ended.error, true]);

    // Space is freed: the end lands on its own, with what had been written.
    db.pragma('max_page_count = 1073741823');
    await expect
      .poll(() => openNow(s, sent.conversationId).turns.at(-1)?.status, { timeout: 30_000 })
      .toBe('error');
    expect(openNow(s, sent.conversationId).turns.at(-1)?.error).toMatch(/^Disk full/);

    // And the app works again (in a new chat: the long answer fills this one's window).
    replay?.setRoutes([{ method: 'POST', path: '/api/show', body: '{"capabilities":["completion"]}' }, ...ollamaRoutes(['Back', ' again.'])]);
    const next = await s.handlers['chat:send']({ conversationId: null, text: 'Short one', model: 'llama3.2:3b' });
    await expect.poll(() => lastSaved(next.assistantTurn.id)?.status, { timeout: 15_000 }).toBe('done');
    const stored = openNow(s, next.conversationId).turns.at(-1) as Turn;
    expect([stored.status, turnText(stored)]).toEqual(['done', 'Back again.']);
  }, 90_000);

  it('refuses a send the database cannot hold, and says why', async () => {
    const { services: s, lastSaved, logs } = await setup(['never sent']);
    afterEachLog = logs;
    const db = s.db;
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'x'.repeat(8_000), model: 'llama3.2:3b' });
    await expect.poll(() => lastSaved(sent.assistantTurn.id)?.status ?? 'streaming', { timeout: 15_000 }).not.toBe('streaming');
    expect(lastSaved(sent.assistantTurn.id)).toMatchObject({ status: 'done' });
    // Full: not one more page.
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const second = await s.dispatcher.dispatch('chat:send', { conversationId: sent.conversationId, text: 'y'.repeat(8_000), model: 'llama3.2:3b' });
    expect(second).toEqual({ ok: false, error: { code: 'internal', message: 'The disk is full, so this was not saved. Free some space, then try again.' } });
    await expect.poll(() => s.chat.activeCount, { timeout: 10_000 }).toBe(0);
  });
});

describe('an answer with no end (item 16)', () => {
  it('is capped with a clear stop: what arrived is kept', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const lines = Math.ceil(MAX_ANSWER_CHARS / chunk.length) + 10;
    const { services: s, lastSaved } = await setup([], { body: ollamaChatStream(Array.from({ length: lines }, () => chunk)), delayMs: 0 });
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'Go on forever', model: 'llama3.2:3b' });
    await expect.poll(() => lastSaved(sent.assistantTurn.id)?.status, { timeout: 60_000 }).toBe('error');
    const ended = lastSaved(sent.assistantTurn.id) as Turn;
    expect(ended.error).toBe('The answer passed 4,000,000 characters, so Firebrand stopped reading it; the first 4,000,000 are kept.');
    expect(turnText(ended).length).toBe(MAX_ANSWER_CHARS);
    await expect.poll(() => openNow(s, sent.conversationId).turns.at(-1)?.status, { timeout: 10_000 }).toBe('error');
  }, 90_000);
});
