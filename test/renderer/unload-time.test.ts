/**
 * Running says the day a model unloads where it is not today, and "kept loaded" for Ollama's keep_alive -1: it said
 * "unloads 12:00:00 AM", a time with no date, and for a model kept for good a time hundreds of years away.
 */
import { describe, expect, it } from 'vitest';
import { ollamaFacts } from '../../src/renderer/components/models/RunningModels';
import { unloadWhen } from '../../src/renderer/components/models/unload-time';

// Local times, so the test reads the same in any time zone.
const now = new Date(2026, 11, 7, 20, 30);
const at = (month: number, day: number, hour: number, minute: number, year = 2026) => new Date(year, month, day, hour, minute).toISOString();

describe('when a running model unloads', () => {
  it('says the time alone for today', () => {
    expect(unloadWhen(at(11, 7, 20, 35), now, 'en-GB')).toBe('unloads at 20:35');
  });

  it('says "tomorrow" for an expiry past midnight', () => {
    expect(unloadWhen(at(11, 8, 9, 15), now, 'en-GB')).toBe('unloads tomorrow at 09:15');
  });

  it('says the day for a later one, and the year where it is not this one', () => {
    expect(unloadWhen(at(11, 12, 9, 15), now, 'en-GB')).toBe('unloads 12 Dec at 09:15');
    expect(unloadWhen(at(0, 3, 9, 15, 2027), now, 'en-GB')).toBe('unloads 3 Jan 2027 at 09:15');
  });

  it('says "kept loaded" for a model Ollama keeps for good (keep_alive -1), not a date centuries ahead', () => {
    // What /api/ps reports for keep_alive -1: now plus Go's longest duration, about 292 years.
    expect(unloadWhen('2318-12-07T20:30:00.000000000Z', now, 'en-GB')).toBe('kept loaded');
    const facts = ollamaFacts({ name: 'qwen3:8b', sizeBytes: 6 * 1024 ** 3, sizeVramBytes: 6 * 1024 ** 3, contextLength: 8192, expiresAt: '2318-12-07T20:30:00Z', spilledToCpu: false }, now, 'en-GB');
    expect(facts).toBe('6.0 GiB of 6.0 GiB on the GPU · context 8,192 tokens · kept loaded');
  });

  it('says the day in the Running line, in the locale given', () => {
    const facts = ollamaFacts({ name: 'qwen3:8b', sizeBytes: 1024 ** 3, sizeVramBytes: 1024 ** 3, contextLength: null, expiresAt: at(11, 8, 0, 0), spilledToCpu: false }, now, 'en-US');
    expect(facts).toBe('1.0 GiB of 1.0 GiB on the GPU · unloads tomorrow at 12:00 AM');
  });
});
