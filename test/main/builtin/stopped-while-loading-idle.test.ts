/**
 * Builtin audit #2: an answer stopped while the engine loaded its model ended at once ("Stopped."), but the load went
 * on. The answer's end asked for the model's idle clock before the engine had reported the model, so nothing started
 * it; when the engine then reported it, it was taken with no clock, and stayed loaded (gigabytes held) for good.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BuiltinService, type BuiltinDeps } from '../../../src/main/builtin/builtin-service';

const BACKEND = { backend: 'cpu', supportedGpus: [], installedGpus: [], vram: null, ram: { total: 1, free: 1 } };
const LONG = { path: '/models/long.gguf', contextSize: 8192, requestedSize: 8192, memoryBytes: 1 };

afterEach(() => vi.useRealTimers());

function service(log: string[]): BuiltinService {
  return new BuiltinService({
    library: { dir: '/models' },
    spawner: null,
    log: (line: string) => log.push(line),
    idleMinutes: () => 10,
    memoryOverride: () => null,
    storedWindow: () => null,
    changed: () => undefined,
  } as unknown as BuiltinDeps);
}

const apply = (s: BuiltinService, loaded: unknown[]) => (s as unknown as { apply(st: unknown): void }).apply({ backend: BACKEND, loaded });

describe('a model whose answer was stopped while it loaded', () => {
  it('gets its idle clock once the engine reports it, and unloads after the idle minutes', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const log: string[] = [];
    const s = service(log);
    // The answer starts and is stopped before the engine has loaded (and reported) the model.
    s.busy('long.gguf', 1);
    s.busy('long.gguf', -1);
    // The load went on: the engine reports the model.
    apply(s, [LONG]);
    expect((await s.status()).loaded).toEqual([{ file: 'long.gguf', contextSize: 8192, requestedSize: 8192, memoryBytes: 1, unloadsAt: 1_000_000 + 600_000, answering: false }]);
    // A later status keeps the clock it has (a status read is no use of the model).
    vi.advanceTimersByTime(60_000);
    apply(s, [LONG]);
    expect((await s.status()).loaded[0]?.unloadsAt).toBe(1_000_000 + 600_000);
    vi.advanceTimersByTime(9 * 60_000);
    expect(log).toContain('builtin: long.gguf unloaded after 10 idle minute(s)');
    await vi.waitFor(async () => expect((await s.status()).loaded).toEqual([]));
    s.close();
  });

  it('has no idle clock while an answer runs on it', async () => {
    const s = service([]);
    s.busy('long.gguf', 1);
    apply(s, [LONG]);
    expect((await s.status()).loaded[0]).toMatchObject({ unloadsAt: null, answering: true });
    s.busy('long.gguf', -1);
    expect((await s.status()).loaded[0]?.unloadsAt).toEqual(expect.any(Number));
    s.close();
  });
});
