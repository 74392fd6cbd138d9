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
});
