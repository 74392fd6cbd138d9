/**
 * Round 7, engine #2: Ollama's Running panel did not follow another tab. A model unloaded (Unload) or loaded (an
 * answer) from one tab showed in another's panel only after its Refresh. Main now reads `/api/ps` once after each,
 * whichever tab did it, and tells every page (`models:running-changed`) when the list changed; and once more at the
 * earliest time Ollama said a model unloads by itself. No polling.
 */
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MIGRATIONS } from '../../../src/main/db/migrations';
import { migrate } from '../../../src/main/db/open-database';
import type { EmitEvent } from '../../../src/main/events';
import { createModelHandlers } from '../../../src/main/models/model-handlers';
import { RunningWatch } from '../../../src/main/models/running-watch';
import type { RunningModel } from '../../../src/shared/models';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

const LOADED = JSON.stringify({
  models: [{ name: 'llama3.1:8b', model: 'llama3.1:8b', size: 6_654_289_920, size_vram: 6_654_289_920, context_length: 43008, expires_at: '2026-11-30T08:05:00.000Z', digest: 'd-llama' }],
});
const NONE = '{"models":[]}';
const UNLOADED = '{"model":"llama3.1:8b","created_at":"2026-11-30T08:00:00Z","response":"","done":true,"done_reason":"unload"}';

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});
afterEach(() => {
  vi.useRealTimers();
});

function handlers() {
  const db = new BetterSqlite3(':memory:');
  migrate(db, MIGRATIONS);
  const told: string[][] = [];
  const emit: EmitEvent = (channel, payload) => {
    if (channel === 'models:running-changed') told.push((payload as { running: RunningModel[] }).running.map((m) => m.name));
  };
  const h = createModelHandlers({ db, baseUrl: () => replay.url, emit, newId: () => 'id', log: () => {} });
  return { h, told };
}

describe('Ollama\'s running models in every page', () => {
  it('are told to every page after an unload from any of them, and after the answers end, when they changed', async () => {
    const { h, told } = handlers();
    replay.requests.length = 0;
    replay.setRoutes([{ path: '/api/ps', body: NONE }, { method: 'POST', path: '/api/generate', body: UNLOADED }]);
    h.answered({ kind: 'ollama', baseUrl: replay.url });
    await expect.poll(() => told).toEqual([[]]);
    // An answer made Ollama load the model.
    replay.setRoutes([{ path: '/api/ps', body: LOADED }, { method: 'POST', path: '/api/generate', body: UNLOADED }]);
    h.answered({ kind: 'ollama', baseUrl: replay.url });
    await expect.poll(() => told).toEqual([[], ['llama3.1:8b']]);
    h.answered({ kind: 'ollama', baseUrl: replay.url });
    await expect.poll(() => replay.requests.filter((r) => r.path === '/api/ps').length).toBe(3);
    replay.setRoutes([{ path: '/api/ps', body: NONE }, { method: 'POST', path: '/api/generate', body: UNLOADED }]);
    await h.handlers['models:unload']({ model: 'llama3.1:8b' });
    // Told once per change: the third look found what the second did.
    expect(told).toEqual([[], ['llama3.1:8b'], []]);
    h.close();
  });

  it('looks again once, when Ollama said the model unloads by itself, and not where nothing is loaded', async () => {
    vi.useFakeTimers();
    const now = Date.parse('2026-11-30T08:00:00.000Z');
    vi.setSystemTime(now);
    const lists: RunningModel[][] = [
      [{ name: 'llama3.1:8b', sizeBytes: 1, sizeVramBytes: 1, contextLength: 4096, expiresAt: '2026-11-30T08:05:00.000Z', spilledToCpu: false }],
      [],
    ];
    let reads = 0;
    const told: RunningModel[][] = [];
    const watch = new RunningWatch({ read: () => Promise.resolve(lists[Math.min(reads++, 1)]!), announce: (r) => told.push(r) });
    await watch.look();
    expect(told).toEqual([lists[0]]);
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(reads).toBe(2);
    expect(told).toEqual([lists[0], []]);
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(reads).toBe(2);
    watch.close();
  });
});
