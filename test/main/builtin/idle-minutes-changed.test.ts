/**
 * Round 9: the minutes after which an unused built-in model unloads (Settings) applied only to the next load or
 * answer. A model loaded already kept the old clock: set to 0 ("never"), it still unloaded at the time the Running
 * panel showed, and the panel kept showing that time. Now a change in Settings gives each loaded model not answering
 * the new timeout, counted from then, and the pages are told.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServices, type Services } from '../../../src/main/services';

let services: Services | undefined;
let dir: string | undefined;
afterEach(() => {
  services?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  services = undefined;
  dir = undefined;
  vi.useRealTimers();
});

const BACKEND = { backend: 'cpu', supportedGpus: [], installedGpus: [], vram: null, ram: { total: 1, free: 1 } };

describe('the built-in idle timeout changed in Settings', () => {
  it('applies to a model loaded already: "never" keeps it loaded, and the pages are told its new time', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    dir = mkdtempSync(join(tmpdir(), 'firebrand-idle-'));
    const told: string[] = [];
    services = createServices({ dataDir: dir, log: () => {}, chat: { titles: false } });
    const h = services.handlers;
    const builtin = services.library.builtin;
    services.hub.connect((channel, payload) => {
      if (channel === 'library:changed') told.push((payload as { reason: string }).reason);
    });
    await h['settings:update']({ builtinIdleMinutes: 10 });
    // As the engine reports a load, and an answer on it ends: its idle clock runs (10 minutes).
    const models = join(dir, 'models');
    (builtin as unknown as { apply(st: unknown): void }).apply({ backend: BACKEND, loaded: [{ path: join(models, 'plain.gguf'), contextSize: 4096, requestedSize: 4096, memoryBytes: 1 }] });
    builtin.busy('plain.gguf', 1);
    builtin.busy('plain.gguf', -1);
    expect((await h['builtin:status']({})).loaded[0]).toMatchObject({ file: 'plain.gguf', unloadsAt: 1_000_000 + 600_000 });

    told.length = 0;
    await h['settings:update']({ builtinIdleMinutes: 0 });
    expect((await h['builtin:status']({})).loaded[0]).toMatchObject({ file: 'plain.gguf', unloadsAt: null });
    expect(told).toContain('idle:plain.gguf');
    vi.advanceTimersByTime(11 * 60_000);
    expect((await h['builtin:status']({})).loaded.map((l) => l.file)).toEqual(['plain.gguf']);

    // Set to 2 minutes: counted from now, and it unloads then.
    await h['settings:update']({ builtinIdleMinutes: 2 });
    expect((await h['builtin:status']({})).loaded[0]?.unloadsAt).toBe(Date.now() + 120_000);
    vi.advanceTimersByTime(121_000);
    await vi.waitFor(async () => expect((await h['builtin:status']({})).loaded).toEqual([]));
  });
});
