/**
 * Test connection, a pull and the Models screen's own calls to Ollama name a saved connection as the rest of the app
 * does (shared connectionName), with its address where that helps to fix it. Before: "Cannot reach the server at
 * http://…" of a connection the user had named "Desk GPU", where the banner and an answer said "Cannot reach Desk GPU
 * at …". An address typed in Settings and not saved yet is still said by its address: no saved connection is there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PullProgress } from '../../../src/shared/models';
import { createServices, type Services } from '../../../src/main/services';
import { startReplayServer } from '../../replay-server/replay-server';

/** Nothing listens on these ports (discard, echo, daytime): every request is refused at once. */
const DOWN = 'http://127.0.0.1:9';
const DESK = 'http://127.0.0.1:7';
const TYPED = 'http://127.0.0.1:13';
const CANNOT_REACH_DESK = `Cannot reach Desk GPU at ${DESK}. Is it running? Start it, or change its address in Settings.`;
/** Test connection is pressed in Settings: the address is fixed "here", not "in Settings". */
const TEST_CANNOT_REACH_DESK = `Cannot reach Desk GPU at ${DESK}. Is it running? Start it, or change its address here.`;

let dir: string | undefined;
let services: Services | undefined;
afterEach(() => {
  services?.close();
  services = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function start(): Services {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-named-'));
  services = createServices({ dataDir: dir, ollamaUrl: DOWN, log: () => {}, chat: { titles: false } });
  return services;
}

/** A second Ollama the user called "Desk GPU", down, in use: the Models screen manages it. */
async function deskGpuInUse(s: Services): Promise<string> {
  const { id } = await s.handlers['connections:save']({ kind: 'ollama', label: 'Desk GPU', baseUrl: DESK });
  await s.handlers['settings:update']({ activeConnectionId: id });
  return id;
}

describe('Test connection names the saved connection', () => {
  it('says "Cannot reach Desk GPU at <address>" of the saved address', async () => {
    const s = start();
    const id = await deskGpuInUse(s);
    expect(await s.handlers['connections:test']({ id })).toEqual({ ok: false, error: TEST_CANNOT_REACH_DESK });
    // The banner and the Models screen still say where the address is changed.
    await expect(s.handlers['models:running']({})).rejects.toThrow(CANNOT_REACH_DESK);
  });

  it('says the address of one typed but not saved yet', async () => {
    const s = start();
    const id = await deskGpuInUse(s);
    const result = await s.handlers['connections:test']({ id, baseUrl: TYPED });
    expect(result).toMatchObject({ ok: false, error: `Cannot reach the server at ${TYPED} (ECONNREFUSED). Is it running, and is the address right?` });
    expect(!result.ok && result.error).not.toContain('Desk GPU');
  });

  it('names it before the address it asked where the server answered with a failure', async () => {
    const s = start();
    const replay = await startReplayServer([{ path: '/api/version', status: 500, body: '{"error":"disk full"}' }]);
    try {
      const { id } = await s.handlers['connections:save']({ kind: 'ollama', label: 'Desk GPU', baseUrl: replay.url });
      expect(await s.handlers['connections:test']({ id })).toEqual({ ok: false, error: `Desk GPU at ${replay.url}/api/version answered HTTP 500: disk full` });
    } finally {
      await replay.close();
    }
  });

  it('names the default Ollama "Ollama"', async () => {
    const s = start();
    expect(await s.handlers['connections:test']({ id: 'ollama' })).toEqual({
      ok: false,
      error: `Cannot reach Ollama at ${DOWN}. Is it running? Start it, or change its address here.`,
    });
  });
});

describe("the Models screen's own calls name the connection it manages", () => {
  it('says "Cannot reach Desk GPU" for details, running, unload, delete and the recommendation', async () => {
    const s = start();
    await deskGpuInUse(s);
    const h = s.handlers;
    await expect(h['models:show']({ model: 'qwen3:8b' })).rejects.toThrow(CANNOT_REACH_DESK);
    await expect(h['models:running']({})).rejects.toThrow(CANNOT_REACH_DESK);
    await expect(h['models:unload']({ model: 'qwen3:8b' })).rejects.toThrow(CANNOT_REACH_DESK);
    await expect(h['models:delete']({ model: 'qwen3:8b' })).rejects.toThrow(CANNOT_REACH_DESK);
    await expect(h['models:recommend-context']({ model: 'qwen3:8b' })).rejects.toThrow(CANNOT_REACH_DESK);
  });

  it('says "Cannot reach Desk GPU" when a pull cannot start, and how to go on', async () => {
    const s = start();
    await deskGpuInUse(s);
    const events: PullProgress[] = [];
    s.hub.connect((channel, payload) => {
      if (channel === 'models:pull-progress') events.push(payload as PullProgress);
    });
    s.handlers['models:pull']({ model: 'qwen3:8b' });
    await expect.poll(() => events.at(-1)?.state).toBe('error');
    // Nothing arrived, so nothing is resumed: it said "Pull again to resume".
    expect(events.at(-1)?.error).toBe(`${CANNOT_REACH_DESK} Pull again tries again.`);
  });

  it('says which server a model was not found on', async () => {
    const s = start();
    const replay = await startReplayServer([]);
    try {
      const { id } = await s.handlers['connections:save']({ kind: 'ollama', label: 'Desk GPU', baseUrl: replay.url });
      await s.handlers['settings:update']({ activeConnectionId: id });
      await expect(s.handlers['models:show']({ model: 'qwen3:8b' })).rejects.toThrow('Details of qwen3:8b: not found on Desk GPU.');
    } finally {
      await replay.close();
    }
  });

  it('says which server refused a delete, with its own words', async () => {
    const s = start();
    const replay = await startReplayServer([{ method: 'DELETE', path: '/api/delete', status: 500, body: '{"error":"disk is read-only"}' }]);
    try {
      const { id } = await s.handlers['connections:save']({ kind: 'ollama', label: 'Desk GPU', baseUrl: replay.url });
      await s.handlers['settings:update']({ activeConnectionId: id });
      await expect(s.handlers['models:delete']({ model: 'qwen3:8b' })).rejects.toThrow('Deleting qwen3:8b failed on Desk GPU (500): disk is read-only');
    } finally {
      await replay.close();
    }
  });

  it('says which server refused a pull, with its own words', async () => {
    const s = start();
    const replay = await startReplayServer([{ method: 'POST', path: '/api/pull', status: 500, body: '{"error":"pull model manifest: file does not exist"}' }]);
    try {
      const { id } = await s.handlers['connections:save']({ kind: 'ollama', label: 'Desk GPU', baseUrl: replay.url });
      await s.handlers['settings:update']({ activeConnectionId: id });
      const events: PullProgress[] = [];
      s.hub.connect((channel, payload) => {
        if (channel === 'models:pull-progress') events.push(payload as PullProgress);
      });
      s.handlers['models:pull']({ model: 'qwen3:8b' });
      await expect.poll(() => events.at(-1)?.state).toBe('error');
      expect(events.at(-1)?.error).toBe(
        'Pulling qwen3:8b failed on Desk GPU: the Ollama library has no model by that name and tag. Check its spelling at ollama.com/library, such as llama3.2:1b. (Desk GPU said: pull model manifest: file does not exist.)',
      );
    } finally {
      await replay.close();
    }
  });

  it("names a conversation's Ollama where its window cannot be worked out, though another is the one managed", async () => {
    const s = start();
    const { id } = await s.handlers['connections:save']({ kind: 'ollama', label: 'Desk GPU', baseUrl: DESK });
    const choice = await s.handlers['models:context-window']({ model: 'qwen3:8b', connectionId: id, wait: true });
    expect(choice.reason).toBe('No recommendation while Desk GPU does not answer.');
  });

  it('names the default Ollama "Ollama" where it is the one managed', async () => {
    const s = start();
    await expect(s.handlers['models:running']({})).rejects.toThrow(`Cannot reach Ollama at ${DOWN}. Is it running?`);
    await expect(s.handlers['models:version']({})).rejects.toThrow(`Cannot reach Ollama at ${DOWN}. Is it running?`);
  });
});
