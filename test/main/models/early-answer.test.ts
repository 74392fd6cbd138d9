import { describe, expect, it } from 'vitest';
import { earlyAnswer } from '../../../src/main/models/early-answer';

/** An ask that counts its calls and answers with that count (or fails, when told to). */
function counter(fail: (n: number) => boolean = () => false) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    ask: () => {
      calls += 1;
      const n = calls;
      return fail(n) ? Promise.reject(new Error(`refused ${n}`)) : Promise.resolve(n);
    },
  };
}

describe('an early answer', () => {
  it('is asked at once and handed to the first ask for the same server, and only to it', async () => {
    const c = counter();
    const early = earlyAnswer(c.ask, 'ollama', { now: () => 0, freshMs: 10_000 });
    expect(c.calls).toBe(1);
    await expect(early.take('ollama')).resolves.toBe(1);
    expect(early.take('ollama')).toBeNull();
    expect(c.calls).toBe(1);
  });

  it('is not handed out for another server, nor once stale, nor after it was forgotten', () => {
    let now = 0;
    const other = earlyAnswer(counter().ask, 'ollama', { now: () => now, freshMs: 10_000 });
    expect(other.take('llama-server')).toBeNull();
    const stale = earlyAnswer(counter().ask, 'ollama', { now: () => now, freshMs: 10_000 });
    now = 10_001;
    expect(stale.take('ollama')).toBeNull();
    const forgotten = earlyAnswer(counter().ask, 'ollama', { now: () => now, freshMs: 10_000 });
    forgotten.forget();
    expect(forgotten.take('ollama')).toBeNull();
  });

  it('is not kept when it failed, and an ask made while it was in flight asks again', async () => {
    const failedFirst = counter((n) => n === 1);
    const done = earlyAnswer(failedFirst.ask, 'ollama', { now: () => 0, freshMs: 10_000 });
    await new Promise((r) => setImmediate(r));
    expect(done.take('ollama')).toBeNull();

    const inFlight = counter((n) => n === 1);
    const pending = earlyAnswer(inFlight.ask, 'ollama', { now: () => 0, freshMs: 10_000 });
    await expect(pending.take('ollama')).resolves.toBe(2);
    expect(inFlight.calls).toBe(2);
  });
});
