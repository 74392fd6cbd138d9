import { describe, expect, it } from 'vitest';
import type { EventChannel } from '../../../src/shared/ipc';
import type { StreamPart } from '../../../src/shared/parts';
import { batchEvents } from '../../../src/main/serve/event-batch';

const delta = (text: string): StreamPart => ({ type: 'text-delta', id: 't0', delta: text });
const parts = (turnId: string, ...texts: string[]) => ({ conversationId: 'c1', turnId, parts: texts.map(delta) });

function harness() {
  const sent: { channel: EventChannel; payload: unknown }[] = [];
  const flushes: (() => void)[] = [];
  const batch = batchEvents(
    (channel, payload) => sent.push({ channel, payload }),
    (f) => flushes.push(f),
  );
  const tick = () => flushes.splice(0).forEach((f) => f());
  return { sent, sink: batch.event, tick, flush: batch.flush };
}

describe('serve-mode event batching', () => {
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

  it('sends an event that arrives alone on the next turn of the loop, and starts a new batch after', () => {
    const { sent, sink, tick } = harness();
    sink('chat:turn-parts', parts('a', 'one'));
    tick();
    sink('chat:turn-parts', parts('a', 'two'));
    tick();
    expect(sent.map((e) => (e.payload as { parts: StreamPart[] }).parts.length)).toEqual([1, 1]);
  });

  it('sends what is pending at once when asked (an invoke result must not overtake its events), and nothing twice', () => {
    const { sent, sink, tick, flush } = harness();
    sink('chat:turn-parts', parts('a', 'one'));
    flush();
    expect(sent).toHaveLength(1);
    tick();
    expect(sent).toHaveLength(1);
    sink('chat:turn-parts', parts('a', 'two'));
    tick();
    expect(sent).toHaveLength(2);
  });
});
