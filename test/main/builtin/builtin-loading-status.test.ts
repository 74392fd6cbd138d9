/**
 * `builtin:status` names the models an answer waits on while the engine loads them, as the `loading:`/`loaded:`
 * events say: a page that missed the `loaded:` (its link was down) or the `loading:` (opened mid-load) reads it
 * there, instead of showing "Loading model…" for good or not at all (leftovers audit, found and left).
 */
import { describe, expect, it } from 'vitest';
import { BuiltinService, type BuiltinDeps } from '../../../src/main/builtin/builtin-service';

function service(changed: string[]): BuiltinService {
  const deps = {
    library: { dir: '/models' },
    spawner: null,
    log: () => undefined,
    idleMinutes: () => 10,
    memoryOverride: () => null,
    storedWindow: () => null,
    changed: (reason: string) => changed.push(reason),
  } as unknown as BuiltinDeps;
  return new BuiltinService(deps);
}

describe('the built-in engine\'s models being loaded', () => {
  it('are in its status from the first answer waiting on one until the last, and told as events', async () => {
    const changed: string[] = [];
    const s = service(changed);
    expect((await s.status()).loading).toEqual([]);
    s.loadingFor('plain.gguf', true);
    s.loadingFor('plain.gguf', true); // a second chat asks the same model meanwhile
    s.loadingFor('big.gguf', true);
    expect((await s.status()).loading).toEqual(['plain.gguf', 'big.gguf']);
    s.loadingFor('plain.gguf', false);
    expect((await s.status()).loading).toEqual(['plain.gguf', 'big.gguf']);
    s.loadingFor('plain.gguf', false);
    s.loadingFor('big.gguf', false);
    expect((await s.status()).loading).toEqual([]);
    expect(changed).toEqual(['loading:plain.gguf', 'loading:plain.gguf', 'loading:big.gguf', 'loaded:plain.gguf', 'loaded:plain.gguf', 'loaded:big.gguf']);
  });

  // Models → Load while an answer ran: the engine loads only between answers, so the click did nothing visible
  // for as long as the answer (and those behind it) ran, minutes on a CPU, and a second click asked again.
  it('refuses Load while the engine answers, in words, and loads again once the answer ended', async () => {
    const s = service([]);
    const place = s.waiting.join('a1', 'long.gguf', 8192);
    await expect(s.load('plain.gguf')).rejects.toMatchObject({ code: 'conflict', message: 'The engine is answering on long.gguf now: load plain.gguf once that answer ends, or stop it first.' });
    place.ended();
    // No engine in this build: the load gets as far as asking for the model (the library here has none).
    await expect(s.load('plain.gguf')).rejects.not.toMatchObject({ message: expect.stringContaining('answering') as unknown });
  });

  // Models → Running said "unloads 10:05 if unused" from before an answer, past and wrong once the answer had ended
  // (the idle clock starts again then), and while it ran (a model answering is not unloaded): no page was told.
  it('tells the pages when an answer stops or restarts a loaded model\'s idle clock', () => {
    const changed: string[] = [];
    let now = 1_000;
    const s = new BuiltinService({
      library: { dir: '/models' }, spawner: null, log: () => undefined, idleMinutes: () => 10, memoryOverride: () => null, storedWindow: () => null,
      changed: (reason: string) => changed.push(reason), now: () => now,
    } as unknown as BuiltinDeps);
    // As the engine reports a load (BuiltinService.apply), then the idle clock as load() starts it.
    (s as unknown as { apply(st: unknown): void }).apply({ backend: { backend: 'cpu' }, loaded: [{ path: '/models/plain.gguf', contextSize: 4096, requestedSize: 4096, memoryBytes: 1 }] });
    s.busy('plain.gguf', 1);
    s.busy('plain.gguf', -1);
    // Told as the answer starts too (the panel says it answers: round 9), and as it ends (its idle clock starts).
    expect(changed).toEqual(['idle:plain.gguf', 'idle:plain.gguf']);
    expect((s as unknown as { loaded: Map<string, { unloadsAt: number | null }> }).loaded.get('plain.gguf')?.unloadsAt).toBe(1_000 + 600_000);
    now = 5_000;
    s.busy('plain.gguf', 1);
    s.busy('plain.gguf', -1);
    expect(changed).toEqual(['idle:plain.gguf', 'idle:plain.gguf', 'idle:plain.gguf', 'idle:plain.gguf']);
    s.close();
  });

  // Round 9: Models → Running showed a model answering in another tab like an idle one, with no unload time and an
  // Unload that main then refused ("is answering now: stop that answer first"). Its status says it answers, and the
  // pages are told when that starts and ends, also with no idle timeout (where the unload time never changes).
  it('says a loaded model answers, from the answer\'s start to its end, and tells the pages both times', async () => {
    const changed: string[] = [];
    const s = new BuiltinService({
      library: { dir: '/models' }, spawner: null, log: () => undefined, idleMinutes: () => 0, memoryOverride: () => null, storedWindow: () => null,
      changed: (reason: string) => changed.push(reason),
    } as unknown as BuiltinDeps);
    const backend = { backend: 'cpu', supportedGpus: [], installedGpus: [], vram: null, ram: { total: 1, free: 1 } };
    (s as unknown as { apply(st: unknown): void }).apply({ backend, loaded: [{ path: '/models/plain.gguf', contextSize: 4096, requestedSize: 4096, memoryBytes: 1 }] });
    expect((await s.status()).loaded).toEqual([{ file: 'plain.gguf', contextSize: 4096, requestedSize: 4096, memoryBytes: 1, unloadsAt: null, answering: false }]);
    s.busy('plain.gguf', 1);
    expect(changed).toEqual(['idle:plain.gguf']);
    expect((await s.status()).loaded[0]).toMatchObject({ answering: true });
    s.busy('plain.gguf', 1); // a second answer on it (a title): nothing new to show
    s.busy('plain.gguf', -1);
    expect(changed).toEqual(['idle:plain.gguf']);
    s.busy('plain.gguf', -1);
    expect(changed).toEqual(['idle:plain.gguf', 'idle:plain.gguf']);
    expect((await s.status()).loaded[0]).toMatchObject({ answering: false, unloadsAt: null });
    s.close();
  });

  // Load in Models showed nothing while the engine loaded the model (seconds to minutes on a CPU), in any tab.
  it('says a model loads for Models → Load, from the request to its end, failed or not', async () => {
    const changed: string[] = [];
    const s = service(changed);
    const seen: string[][] = [];
    const inside = s as unknown as { fitProblem: () => Promise<null>; makeRoom: () => Promise<void>; deps: { library: { model: () => Promise<unknown> } } };
    inside.deps.library.model = () => Promise.resolve({ entry: { path: '/models/plain.gguf', sizeBytes: 1 }, info: {} });
    inside.fitProblem = () => Promise.resolve(null);
    inside.makeRoom = async () => {
      seen.push((await s.status()).loading);
    };
    // No engine in this build: the load fails there, after it was said to load.
    await expect(s.load('plain.gguf')).rejects.toThrow('not part of this build');
    expect(seen).toEqual([['plain.gguf']]);
    expect((await s.status()).loading).toEqual([]);
    expect(changed).toEqual(['loading:plain.gguf', 'loaded:plain.gguf']);
  });
  // Round 8, engine #4: an answer sent while Models → Load loaded another model said "Loading <its model>" while the
  // engine loaded the other one first (a load and a generation do not run side by side).
  it('puts a load asked from Models in the engine\'s line: an answer sent meanwhile says it waits for that load', async () => {
    const s = service([]);
    const inside = s as unknown as { fitProblem: () => Promise<null>; makeRoom: (file: string, contextSize: number) => Promise<void>; deps: { library: { model: () => Promise<unknown> } } };
    inside.deps.library.model = () => Promise.resolve({ entry: { path: '/models/plain.gguf', sizeBytes: 1 }, info: {} });
    inside.fitProblem = () => Promise.resolve(null);
    const seen: unknown[] = [];
    const refusals: string[] = [];
    let inLoad = false;
    inside.makeRoom = async (_file, contextSize) => {
      if (inLoad) return; // the second Load, were it not refused
      inLoad = true;
      // Mid-load: one answer on another model, then (alone) one on the model loading.
      const other = s.waiting.join('a1', 'thinker.gguf', contextSize);
      seen.push(s.waiting.list());
      other.ended();
      const same = s.waiting.join('a2', 'plain.gguf', contextSize);
      seen.push(s.waiting.list());
      same.ended();
      await s.load('thinker.gguf').catch((err: Error) => refusals.push(err.message));
    };
    // No engine in this build: the load fails there, after the answers above joined the line behind it.
    await expect(s.load('plain.gguf')).rejects.toThrow('not part of this build');
    const load = { file: 'plain.gguf', answer: false, load: true };
    expect(seen).toEqual([
      [{ turnId: 'a1', file: 'thinker.gguf', state: 'queued', ahead: [load], thenLoads: true }],
      [{ turnId: 'a2', file: 'plain.gguf', state: 'queued', ahead: [load], thenLoads: false }],
    ]);
    expect(refusals).toEqual(['The engine is loading plain.gguf now: load thinker.gguf once that load ends.']);
    // The load left the line, failed as it did: nothing waits on it.
    expect(s.waiting.current()).toBeNull();
  });
  it('refuses Load when an answer took the engine while the file and its fit were read', async () => {
    const changed: string[] = [];
    const s = service(changed);
    const inside = s as unknown as { fitProblem: () => Promise<null>; deps: { library: { model: () => Promise<unknown> } } };
    inside.deps.library.model = () => Promise.resolve({ entry: { path: '/models/plain.gguf', sizeBytes: 1 }, info: {} });
    let place: { ended(): void } | undefined;
    inside.fitProblem = () => {
      place = s.waiting.join('a1', 'long.gguf', 8192);
      return Promise.resolve(null);
    };
    await expect(s.load('plain.gguf')).rejects.toMatchObject({ message: 'The engine is answering on long.gguf now: load plain.gguf once that answer ends, or stop it first.' });
    // Never said to load: the engine was not asked.
    expect(changed).toEqual([]);
    place?.ended();
  });

  // The Models screen, open as the engine first started, said "The engine starts on first use" until opened again.
  it('tells the pages once when the engine first says which build it runs', async () => {
    const changed: string[] = [];
    const s = service(changed);
    const backend = { backend: 'cpu', ram: { free: 1, total: 2 }, vram: null, supportedGpus: [], installedGpus: [] };
    (s as unknown as { engine(): unknown }).engine = () => ({ request: () => Promise.resolve({ backend, loaded: [] }) });
    expect((await s.status()).backend).toBeNull();
    await s.refresh();
    await s.refresh();
    expect(changed).toEqual(['backend']);
    expect((await s.status()).backend?.reason).toMatch(/^CPU/);
  });
});
