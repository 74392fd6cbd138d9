import { describe, expect, it } from 'vitest';
import type { EventChannel } from '../../../src/shared/ipc';
import type { StreamPart } from '../../../src/shared/parts';
import { batchEvents } from '../../../src/main/ipc/event-batch';

const delta = (text: string): StreamPart => ({ type: 'text-delta', id: 't0', delta: text });
const parts = (turnId: string, ...texts: string[]) => ({ conversationId: 'c1', turnId, parts: texts.map(delta) });

function harness() {
  const sent: { channel: EventChannel; payload: unknown }[] = [];
  let soon: (() => void)[] = [];
  let timers: { at: number; f: () => void }[] = [];
  let now = 1000;
  const batch = batchEvents((channel, payload) => sent.push({ channel, payload }), {
    soon: (f) => soon.push(f),
    later: (f, ms) => {
      const timer = { at: now + ms, f };
      timers.push(timer);
      return () => (timers = timers.filter((t) => t !== timer));
    },
    now: () => now,
  });
  /** The current turn of the loop ends. */
  const tick = () => {
    const run = soon;
    soon = [];
    run.forEach((f) => f());
  };
  /** Time passes: timers due by then fire. */
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    due.forEach((t) => t.f());
  };
  return { sent, sink: batch.event, tick, advance, flush: batch.flush, timers: () => timers.length };
}

const texts = (sent: { payload: unknown }[]) => sent.map((e) => (e.payload as { parts?: StreamPart[] }).parts?.map((p) => (p as { delta: string }).delta).join(''));

describe('event batching for the page (serve mode and the Electron window)', () => {
  it('sends the parts of one turn that arrive in one turn of the loop as one event, in order', () => {
    const { sent, sink, tick } = harness();
    sink('chat:turn-parts', parts('a', 'one'));
    sink('chat:turn-parts', parts('a', ' two', ' three'));
    expect(sent).toEqual([]);
    tick();
    expect(sent).toEqual([{ channel: 'chat:turn-parts', payload: parts('a', 'one', ' two', ' three') }]);
  });

  it('keeps the order of other events and of other turns, and never changes an emitted payload', () => {
    const { sent, sink, tick } = harness();
    const first = parts('a', 'x');
    sink('chat:turn-parts', first);
    sink('chat:turn-parts', parts('a', 'y'));
    sink('conversations:changed', { conversationId: null });
    sink('chat:turn-parts', parts('a', 'z'));
    sink('chat:turn-parts', parts('b', 'w'));
    tick();
    expect(sent.map((e) => [e.channel, (e.payload as { parts?: StreamPart[] }).parts?.map((p) => (p as { delta: string }).delta)])).toEqual([
      ['chat:turn-parts', ['x', 'y']],
      ['conversations:changed', undefined],
      ['chat:turn-parts', ['z']],
      ['chat:turn-parts', ['w']],
    ]);
    expect(first).toEqual(parts('a', 'x'));
  });

  it('sends a slow stream\'s parts on the next turn of the loop: one every 10 ms is never held', () => {
    const { sent, sink, tick, advance } = harness();
    for (const word of ['one', 'two', 'three']) {
      sink('chat:turn-parts', parts('a', word));
      tick();
      expect(texts(sent).at(-1)).toBe(word);
      advance(10);
    }
    expect(sent).toHaveLength(3);
  });

  it('sends a slow stream\'s token that follows a late one closely at once too (a server timer fired late)', () => {
    const { sent, sink, tick, advance } = harness();
    // 100 tokens/s whose second token came 5 ms late: it and the third are 5 ms apart.
    for (const [gap, word] of [[0, 'one'], [15, 'two'], [5, 'three'], [10, 'four'], [4, 'five']] as const) {
      advance(gap);
      sink('chat:turn-parts', parts('a', word));
      tick();
      expect(texts(sent).at(-1)).toBe(word);
    }
  });

  it('holds a fast stream\'s parts, joined, to one message per half frame once a burst of two has gone', () => {
    const { sent, sink, tick, advance } = harness();
    // 1,000 tokens/s: one a millisecond. The first two go at once, then the bucket is empty.
    sink('chat:turn-parts', parts('a', 'a'));
    tick();
    for (const word of ['b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      advance(1);
      sink('chat:turn-parts', parts('a', word));
      tick();
    }
    expect(texts(sent)).toEqual(['a', 'b']);
    // b left a fraction of a send (1 ms of refill); the bucket holds a whole one again 7 ms after b (at 8 ms).
    advance(1);
    expect(texts(sent)).toEqual(['a', 'b', 'cdefgh']);
    const sentAt: number[] = [];
    let t = 8;
    for (let i = 0; i < 80; i++) {
      const before = sent.length;
      advance(1);
      t += 1;
      sink('chat:turn-parts', parts('a', 'x'));
      tick();
      if (sent.length > before) sentAt.push(t);
    }
    // Sends as the bucket refills: one per 8 ms, every token in one of them.
    const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(8);
    for (const gap of gaps) expect(gap).toBe(8);
    advance(8);
    expect(texts(sent).join('')).toBe(`abcdefgh${'x'.repeat(80)}`);
  });

  it('sends held parts at once, first, when any other event comes (the turn saved, say)', () => {
    const { sent, sink, tick, advance, timers } = harness();
    // Two sends empty the bucket; y is held.
    for (const word of ['w', 'x']) {
      sink('chat:turn-parts', parts('a', word));
      tick();
    }
    advance(2);
    sink('chat:turn-parts', parts('a', 'y'));
    tick();
    expect(texts(sent)).toEqual(['w', 'x']);
    sink('chat:turn-saved', { turn: { id: 'a' } });
    tick();
    expect(sent.map((e) => e.channel)).toEqual(['chat:turn-parts', 'chat:turn-parts', 'chat:turn-parts', 'chat:turn-saved']);
    expect(texts(sent)[2]).toBe('y');
    expect(timers()).toBe(0);
  });

  it('sends the parts that end an answer at once, with those held before them: its last words wait for no bucket', () => {
    const { sent, sink, tick, advance, timers } = harness();
    for (const word of ['w', 'x']) {
      sink('chat:turn-parts', parts('a', word));
      tick();
    }
    advance(1);
    sink('chat:turn-parts', parts('a', 'y'));
    tick();
    // The bucket is empty: y waits for it.
    expect(texts(sent)).toEqual(['w', 'x']);
    expect(timers()).toBe(1);
    // The stream's last word and its finish come: all of it goes at the next turn of the loop, joined.
    const finish: StreamPart = { type: 'finish', wireReason: 'stop', stop: 'done' };
    sink('chat:turn-parts', { conversationId: 'c1', turnId: 'a', parts: [delta('z'), finish] });
    tick();
    expect(texts(sent)).toEqual(['w', 'x', 'yz']);
    expect((sent[2]!.payload as { parts: StreamPart[] }).parts.at(-1)).toEqual(finish);
    expect(timers()).toBe(0);
    // A finish alone, with nothing held, goes the same way.
    sink('chat:turn-parts', { conversationId: 'c1', turnId: 'b', parts: [finish] });
    tick();
    expect(sent).toHaveLength(4);
  });

  it('sends what is pending at once when asked (an invoke result must not overtake its events), and nothing twice', () => {
    const { sent, sink, tick, advance, flush, timers } = harness();
    sink('chat:turn-parts', parts('a', 'zero'));
    tick();
    sink('chat:turn-parts', parts('a', 'one'));
    flush();
    expect(sent).toHaveLength(2);
    tick();
    expect(sent).toHaveLength(2);
    // The bucket is empty: two is held, on a timer, until flushed.
    advance(1);
    sink('chat:turn-parts', parts('a', 'two'));
    expect(timers()).toBe(1);
    flush();
    expect(texts(sent)).toEqual(['zero', 'one', 'two']);
    expect(timers()).toBe(0);
    advance(20);
    tick();
    expect(sent).toHaveLength(3);
  });
});
