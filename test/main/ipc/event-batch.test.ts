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

  it('holds a fast stream\'s parts until half a frame after the last sent, joined, then sends them', () => {
    const { sent, sink, tick, advance } = harness();
    sink('chat:turn-parts', parts('a', 'a'));
    tick();
    // 1,000 tokens/s: one a millisecond.
    for (const word of ['b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      advance(1);
      sink('chat:turn-parts', parts('a', word));
      tick();
    }
    expect(texts(sent)).toEqual(['a']);
    advance(1);
    expect(texts(sent)).toEqual(['a', 'bcdefgh']);
    for (const word of ['i', 'j']) {
      advance(1);
      sink('chat:turn-parts', parts('a', word));
      tick();
    }
    // Sent at 8 ms; i and j came at 9 and 10; they go at 16.
    advance(5);
    expect(texts(sent)).toEqual(['a', 'bcdefgh']);
    advance(1);
    expect(texts(sent)).toEqual(['a', 'bcdefgh', 'ij']);
  });

  it('sends held parts at once, first, when any other event comes (the turn saved, say)', () => {
    const { sent, sink, tick, advance, timers } = harness();
    sink('chat:turn-parts', parts('a', 'x'));
    tick();
    advance(2);
    sink('chat:turn-parts', parts('a', 'y'));
    tick();
    expect(texts(sent)).toEqual(['x']);
    sink('chat:turn-saved', { turn: { id: 'a' } });
    tick();
    expect(sent.map((e) => e.channel)).toEqual(['chat:turn-parts', 'chat:turn-parts', 'chat:turn-saved']);
    expect(texts(sent)[1]).toBe('y');
    expect(timers()).toBe(0);
  });

  it('sends what is pending at once when asked (an invoke result must not overtake its events), and nothing twice', () => {
    const { sent, sink, tick, advance, flush, timers } = harness();
    sink('chat:turn-parts', parts('a', 'one'));
    flush();
    expect(sent).toHaveLength(1);
    tick();
    expect(sent).toHaveLength(1);
    advance(1);
    sink('chat:turn-parts', parts('a', 'two'));
    expect(timers()).toBe(1);
    flush();
    expect(texts(sent)).toEqual(['one', 'two']);
    expect(timers()).toBe(0);
    advance(20);
    tick();
    expect(sent).toHaveLength(2);
  });
});
