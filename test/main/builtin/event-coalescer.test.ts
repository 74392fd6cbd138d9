import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventCoalescer, TEXT_INTERVAL_MS } from '../../../src/main/builtin/event-coalescer';
import type { EngineEvent } from '../../../src/main/builtin/protocol';

// The engine process's stream to main: the same text in the same order with fewer messages, the first token and a
// slow model's tokens at once, and nothing of the answer held back behind its end.
describe('EventCoalescer', () => {
  let now = 0;
  let sent: EngineEvent[];
  let out: EventCoalescer;
  beforeEach(() => {
    vi.useFakeTimers();
    now = 1_000;
    sent = [];
    out = new EventCoalescer((e) => sent.push(e), 10, () => now);
  });
  afterEach(() => vi.useRealTimers());

  const text = (t: string): EngineEvent => ({ type: 'text', text: t });
  const done: EngineEvent = { type: 'done', reason: 'eog', promptTokens: 3, completionTokens: 4, promptMs: 1, generationMs: 2 };
  const advance = (ms: number) => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };

  it('sends the first piece at once and joins a fast model’s next pieces into one message per interval', () => {
    out.push({ type: 'start', promptTokens: 3, cachedTokens: 0 });
    out.push(text('One'));
    expect(sent).toEqual([{ type: 'start', promptTokens: 3, cachedTokens: 0 }, text('One')]);
    advance(1);
    out.push(text(' two'));
    advance(1);
    out.push(text(' three'));
    expect(sent).toHaveLength(2);
    advance(8);
    expect(sent.slice(2)).toEqual([text(' two three')]);
  });

  it('sends each piece of a slow model as it comes', () => {
    out.push(text('a'));
    advance(50);
    out.push(text('b'));
    advance(50);
    out.push(text('c'));
    expect(sent).toEqual([text('a'), text('b'), text('c')]);
  });

  it('sends the held text before the end, so the answer is whole and in order', () => {
    out.push(text('Hello'));
    advance(2);
    out.push(text(','));
    out.push(text(' world'));
    out.push(done);
    expect(sent).toEqual([text('Hello'), text(', world'), done]);
    advance(100);
    expect(sent).toHaveLength(3);
  });

  it('flush sends what is held at once (a generation that failed still delivers its text)', () => {
    out.push(text('x'));
    advance(1);
    out.push(text('y'));
    out.flush();
    expect(sent).toEqual([text('x'), text('y')]);
    out.flush();
    advance(100);
    expect(sent).toHaveLength(2);
  });

  /** Tokens waiting to become text, counting how often their text was made. */
  const tokens = () => {
    let waiting: string[] = [];
    return {
      takes: 0,
      add(t: string) {
        waiting.push(t);
      },
      take() {
        this.takes++;
        const t = waiting.join('');
        waiting = [];
        return t;
      },
    };
  };

  it('makes pending text only when it goes out: once per message, not once per token', () => {
    const source = tokens();
    for (const t of ['One', ' two', ' three', ' four']) {
      source.add(t);
      out.pending(source);
      advance(2);
    }
    // The first token went out at once; the next three waited for the interval and went out together.
    expect(sent).toEqual([text('One')]);
    expect(source.takes).toBe(1);
    advance(10);
    expect(sent).toEqual([text('One'), text(' two three four')]);
    expect(source.takes).toBe(2);
  });

  it('keeps pending text in order with text events and before the end', () => {
    const source = tokens();
    out.push(text('A'));
    advance(1);
    source.add('b');
    out.pending(source);
    out.push(text('C'));
    source.add('d');
    out.pending(source);
    out.push(done);
    expect(sent).toEqual([text('A'), text('bCd'), done]);
  });

  it('by default sends a fast model at most 30 times a second, and a slower one token by token', () => {
    const fast = new EventCoalescer((e) => sent.push(e), undefined, () => now);
    // A small model on a GPU: a token every millisecond for one second.
    for (let i = 0; i < 1_000; i++) {
      fast.push(text(`${i} `));
      advance(1);
    }
    fast.flush();
    // The first token at once, then one message per 33 ms (30 a second), and the rest at the end.
    expect(sent.length).toBeLessThanOrEqual(32);
    expect(sent.length).toBeGreaterThanOrEqual(30);
    expect(sent[0]).toEqual(text('0 '));
    expect(sent.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe(Array.from({ length: 1_000 }, (_, i) => `${i} `).join(''));
    // 25 tokens a second (a 7B model on a laptop's CPU): nothing waits.
    sent.length = 0;
    advance(TEXT_INTERVAL_MS);
    for (let i = 0; i < 5; i++) {
      fast.push(text(`t${i}`));
      expect(sent).toHaveLength(i + 1);
      advance(40);
    }
  });
});
