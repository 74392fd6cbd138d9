/**
 * A server's list is looked at every few seconds (server-watch.ts). A page can read it between two looks (the picker
 * re-reads it after another change): a model pulled there and deleted before the next look was shown by the page,
 * yet both looks agreed, so nothing told the page it was gone and it stayed in the picker. The lists handed out are
 * told to the watch by their names, as the built-in folder's are (folder-watch.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/main/services';
import type { ModelsChanged } from '../../../src/shared/models';
import { watchedServices } from './watched-services';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';

let replay: ReplayServer;
let dir: string;
let services: Services;
let changes: ModelsChanged[];

beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-server-list-watch-'));
  // Looks come only when asked (models:watch-now), so the test says when each is made.
  ({ services, changes } = watchedServices(dir, join(dir, 'models')));
});
afterEach(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

const tags = (...names: string[]): ReplayRoute[] => [
  { path: '/api/tags', body: JSON.stringify({ models: names.map((name) => ({ name, model: name, size: 1000, digest: `d-${name}`, details: {} })) }) },
  { method: 'POST', path: '/api/show', status: 404, body: '{"error":"not found"}' },
];
const v1 = (...ids: string[]): ReplayRoute[] => [
  { path: '/v1/models', body: JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) }) },
  // llama-server's window is in its look, not in the list: the two must still agree.
  { path: '/props', body: JSON.stringify({ default_generation_settings: { n_ctx: 8192 } }) },
];

const names = async () => (await services.handlers['models:list']({})).map((m) => m.name).sort();
const looks = (path: string) => replay.requests.filter((r) => r.path === path).length;

/** Asks for looks until `count` changes were told (a look under way when asked is not repeated). */
async function toldChanges(count: number): Promise<void> {
  await expect
    .poll(async () => {
      if (changes.length < count) await services.handlers['models:watch-now']({});
      return changes.length;
    }, { timeout: 10_000 })
    .toBe(count);
}

/** Two more looks made whole: the first of them has said what it had to by the time the second asks. */
async function twoLooks(path: string): Promise<void> {
  const before = looks(path);
  await expect
    .poll(async () => {
      await services.handlers['models:watch-now']({});
      return looks(path);
    }, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(before + 2);
}

async function pulledAndDeleted(path: string, one: ReplayRoute[], two: ReplayRoute[], connect: () => Promise<void>): Promise<void> {
  const h = services.handlers;
  // The server away: the watch finds it so, then finds it back and says so.
  await h['settings:update']({ ollamaUrl: 'http://127.0.0.1:9' });
  await expect(h['models:list']({})).rejects.toThrow();
  replay.setRoutes(one);
  await connect();
  await toldChanges(1);
  // Pulled after that look; a page reads its list and shows the model.
  replay.setRoutes(two);
  expect(await names()).toEqual(['llama3.2:1b', 'qwen3:0.6b']);
  // Deleted before the next look, which finds the list as the last look did: the page must still be told.
  replay.setRoutes(one);
  await toldChanges(2);
  expect(changes[1]).toEqual({ connectionId: changes[0]!.connectionId, reachable: true, error: null });
  expect(await names()).toEqual(['llama3.2:1b']);
  // The page's re-read matches the looks: nothing more is said (no change told every few seconds).
  await twoLooks(path);
  expect(changes).toHaveLength(2);
}

describe('a server\'s model list, watched', () => {
  it('tells the pages an Ollama model is gone that one of them listed, though the watch never saw it', async () => {
    await pulledAndDeleted('/api/tags', tags('llama3.2:1b'), tags('llama3.2:1b', 'qwen3:0.6b'), async () => {
      await services.handlers['settings:update']({ ollamaUrl: replay.url });
    });
  });

  it('tells the pages an OpenAI-compatible server\'s model is gone that one of them listed', async () => {
    await pulledAndDeleted('/v1/models', v1('llama3.2:1b'), v1('qwen3:0.6b', 'llama3.2:1b'), async () => {
      const { id } = await services.handlers['connections:save']({ kind: 'openai-compatible', label: 'box', baseUrl: replay.url });
      await services.handlers['settings:update']({ activeConnectionId: id });
    });
  });

  it('tells the pages a llama-server model is gone that one of them listed', async () => {
    await pulledAndDeleted('/v1/models', v1('llama3.2:1b'), v1('qwen3:0.6b', 'llama3.2:1b'), async () => {
      const { id } = await services.handlers['connections:save']({ kind: 'llama-server', label: 'box', baseUrl: replay.url });
      await services.handlers['settings:update']({ activeConnectionId: id });
    });
  });
});
