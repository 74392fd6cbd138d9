/**
 * Round 10 (left by round 9's data audit): an answer whose run failed with an exception ended in chat-service's
 * catch, which wrote the end without run-step's hold (LiveTurns.holdUnsaved). On a full disk that end could not
 * be written, so a chat opened meanwhile (a reload, another tab) read the row: "streaming", with what its last
 * write held, a spinner, and a Stop that stopped nothing, until room came back. And where run-step had already
 * held an end, the catch wrote the row's older copy after it, which could land last and take the answer's text.
 *
 * The failure is injected: the step loop throws (a write failure) after streaming, and the store refuses writes
 * while `full` says the disk is full.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView, EventChannel } from '../../../src/shared/ipc';
import { turnText, type Turn } from '../../../src/shared/turn';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import type { EngineDeps, LoopInput } from '../../../src/main/engine/step-loop';
import { TurnWriter } from '../../../src/main/engine/turn-writer';
import { createServices, type Services } from '../../../src/main/services';

const disk = vi.hoisted(() => ({ full: false }));
/** How the injected run ends: with only a streamed copy, or after run-step held its own unsaved end. */
const run = vi.hoisted(() => ({ heldEnd: false }));

vi.mock('../../../src/main/engine/step-loop', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/main/engine/step-loop')>()),
  runLoop: async (deps: EngineDeps, input: LoopInput): Promise<Turn[]> => {
    const streamed: Turn = { ...input.firstTurn, blocks: [{ type: 'text', text: 'Wombats dig deep burrows.' }] };
    deps.live?.note(streamed, 1);
    disk.full = true;
    if (run.heldEnd) {
      // As run-step does with an end it could not write (saveEventually there).
      const end: Turn = { ...streamed, status: 'done', stop: 'end_turn' };
      deps.live?.end(streamed.id);
      deps.live?.holdUnsaved(end);
      new TurnWriter((t) => deps.store.updateTurn(t)).saveEventually(end, () => deps.live?.saved(end.id));
    }
    throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  },
}));

const realUpdate = ConversationStore.prototype.updateTurn;
/** Every write of an answer tried, in order, with the text it carried. */
const writes: { id: string; status: string; text: string }[] = [];
vi.spyOn(ConversationStore.prototype, 'updateTurn').mockImplementation(function (this: ConversationStore, turn: Turn) {
  if (turn.role === 'assistant') writes.push({ id: turn.id, status: turn.status, text: turnText(turn) });
  if (disk.full) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  return realUpdate.call(this, turn);
});

let services: Services | undefined;
let dir = '';
afterEach(() => {
  services?.close();
  rmSync(dir, { recursive: true, force: true });
  disk.full = false;
  run.heldEnd = false;
  writes.length = 0;
});

function start() {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-answer-failed-'));
  const s = createServices({ dataDir: dir, ollamaUrl: 'http://127.0.0.1:9', log: () => {}, chat: { titles: false } });
  services = s;
  const saved: Turn[] = [];
  s.hub.connect((channel: EventChannel, payload: unknown) => {
    if (channel === 'chat:turn-saved') saved.push((payload as { turn: Turn }).turn);
  });
  const openNow = (conversationId: string) => (s.handlers['conversations:open']({ conversationId }) as ConversationView).turns.at(-1) as Turn;
  return { s, saved, openNow };
}

describe('an answer whose run fails with an exception, on a full disk', () => {
  it('shows ended with what streamed while its end is not saved, then is saved so once there is room', async () => {
    const { s, saved, openNow } = start();
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'How deep?', model: 'llama3.2:3b' });
    const id = sent.assistantTurn.id;
    await expect.poll(() => saved.find((t) => t.id === id)?.status).toBe('error');
    await expect.poll(() => s.chat.activeCount).toBe(0);

    // Not written (the row still says streaming, empty): a reload shows it ended, with the text that streamed.
    expect(new ConversationStore(s.db).getTurn(id)?.status).toBe('streaming');
    const shown = openNow(sent.conversationId);
    expect([shown.status, shown.error, turnText(shown)]).toEqual([
      'error',
      'Disk full: what arrived so far is kept up to the last write. Free some space, then ask again.',
      'Wombats dig deep burrows.',
    ]);

    disk.full = false;
    await expect.poll(() => new ConversationStore(s.db).getTurn(id)?.status, { timeout: 10_000 }).toBe('error');
    expect(turnText(new ConversationStore(s.db).getTurn(id)!)).toBe('Wombats dig deep burrows.');
    expect(turnText(openNow(sent.conversationId))).toBe('Wombats dig deep burrows.');
  });

  it('leaves an end the step held unsaved to its own writer, rather than writing the older row after it', async () => {
    run.heldEnd = true;
    const { s, openNow } = start();
    const sent = await s.handlers['chat:send']({ conversationId: null, text: 'How deep?', model: 'llama3.2:3b' });
    const id = sent.assistantTurn.id;
    await expect.poll(() => s.chat.activeCount).toBe(0);
    expect([openNow(sent.conversationId).status, turnText(openNow(sent.conversationId))]).toEqual(['done', 'Wombats dig deep burrows.']);

    disk.full = false;
    await expect.poll(() => new ConversationStore(s.db).getTurn(id)?.status, { timeout: 10_000 }).toBe('done');
    // Only the held end was ever written: no copy without the text was tried, to land after it.
    expect(writes.filter((w) => w.id === id)).toEqual(writes.filter((w) => w.id === id).map(() => ({ id, status: 'done', text: 'Wombats dig deep burrows.' })));
    expect(turnText(openNow(sent.conversationId))).toBe('Wombats dig deep burrows.');
  });
});
