/**
 * An answer waiting on a built-in model before its first token says what it waits on (first-hour audit F5), and
 * each answer its own (tabs #4): two answers on one model (two tabs, or a regenerate) shared one line per model
 * file, which went from both when the first one's load ended while the second still waited.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import type { WaitingAnswer } from '../../src/shared/library';
import { useBuiltinLoading, waitingLine, waitingOf } from '../../src/renderer/store/builtin-loading';

const first: Turn = { id: 'a1', conversationId: 'c1', parentId: 'u1', role: 'assistant', blocks: [], meta: {}, status: 'streaming', model: 'scripted/thinker.gguf', createdAt: 1 };
const second: Turn = { ...first, id: 'a2', conversationId: 'c2', parentId: 'u2' };
const loading = (turnId: string): WaitingAnswer => ({ turnId, file: 'scripted/thinker.gguf', state: 'loading' });
const queued = (turnId: string, ahead: string[], thenLoads: boolean, file = 'scripted/thinker.gguf'): WaitingAnswer => ({ turnId, file, state: 'queued', ahead: ahead.map((f) => ({ file: f, answer: true })), thenLoads });

/** The line an answer shows (AssistantTurn draws `waitingLine(waitingOf(...))`, its state as `data-state`); none: null. */
function lineOf(turn: Turn): string | null {
  const w = waitingOf(turn, useBuiltinLoading.getState().waiting);
  return w ? `${w.state}: ${waitingLine(w)}` : null;
}

beforeEach(() => useBuiltinLoading.setState({ waiting: {} }));

describe('an answer waiting on a built-in model', () => {
  it('names what it waits on while nothing has streamed; not once it streams, ends, or when main says it no longer waits', () => {
    const waiting = { a1: loading('a1') };
    expect(waitingOf(first, waiting)).toEqual(loading('a1'));
    expect(waitingOf(first, {})).toBeNull();
    expect(waitingOf({ ...first, blocks: [{ type: 'text', text: 'Hi' }] }, waiting)).toBeNull();
    expect(waitingOf({ ...first, status: 'error' }, waiting)).toBeNull();
    expect(waitingLine(loading('a1'))).toBe('Loading scripted/thinker.gguf into memory; the answer starts once it is loaded.');
    expect(waitingLine(queued('a1', ['scripted/thinker.gguf'], false))).toBe('scripted/thinker.gguf is answering another message; this answer starts when that one ends.');
  });

  it('shows each of two answers on one model its own line: the first\'s load ending leaves the second saying it waits', () => {
    useBuiltinLoading.setState({ waiting: { a1: loading('a1'), a2: loading('a2') } });
    expect(lineOf(first)).toBe('loading: Loading scripted/thinker.gguf into memory; the answer starts once it is loaded.');
    expect(lineOf(second)).toBe('loading: Loading scripted/thinker.gguf into memory; the answer starts once it is loaded.');
    // The engine started the first answer (main: a1 no longer waits; a2 waits for it to end).
    useBuiltinLoading.setState({ waiting: { a2: queued('a2', ['scripted/thinker.gguf'], false) } });
    expect(lineOf(first)).toBeNull();
    expect(lineOf(second)).toBe('queued: scripted/thinker.gguf is answering another message; this answer starts when that one ends.');
  });

  // Round 7, engine #1: an answer on one model behind an answer on another said "Loading <its model>" while the
  // engine was answering on the other one.
  it('behind an answer on another model says it waits for that answer, then loads its own', () => {
    expect(waitingLine(queued('a2', ['scripted/plain.gguf'], true))).toBe('Waiting for the answer on scripted/plain.gguf to finish, then loading scripted/thinker.gguf.');
    expect(waitingLine(queued('a2', ['scripted/plain.gguf'], false))).toBe('Waiting for the answer on scripted/plain.gguf to finish; this answer starts then.');
    expect(waitingLine(queued('a3', ['scripted/plain.gguf', 'scripted/thinker.gguf'], false))).toBe(
      'Waiting for 1 answer on scripted/plain.gguf and 1 answer on scripted/thinker.gguf to finish; this answer starts then.',
    );
    // Its own model behind an answer with another window: a new context is made once that one ends.
    expect(waitingLine(queued('a2', ['scripted/thinker.gguf'], true))).toBe(
      "Waiting for the answer on scripted/thinker.gguf to finish, then loading scripted/thinker.gguf again with this answer's context window.",
    );
  });

  it('behind a title or summary made on a model says so, not "the answer"', () => {
    const title: WaitingAnswer = { turnId: 'a2', file: 'scripted/thinker.gguf', state: 'queued', ahead: [{ file: 'scripted/thinker.gguf', answer: false }], thenLoads: false };
    expect(waitingLine(title)).toBe('Waiting for a title or summary being made on scripted/thinker.gguf to finish; this answer starts then.');
    const mixed: WaitingAnswer = { ...title, ahead: [{ file: 'scripted/plain.gguf', answer: true }, { file: 'scripted/thinker.gguf', answer: false }], thenLoads: true };
    expect(waitingLine(mixed)).toBe(
      "Waiting for 1 answer on scripted/plain.gguf and a title or summary on scripted/thinker.gguf to finish, then loading scripted/thinker.gguf again with this answer's context window.",
    );
  });
  // Round 8, engine #4: it said "Loading <its model>" while the engine loaded the model Models → Load asked for first.
  it('behind a load asked from Models says it waits for that load, or that its own model is the one loading', () => {
    const behindLoad = (file: string, thenLoads: boolean): WaitingAnswer => ({ turnId: 'a1', file, state: 'queued', ahead: [{ file: 'scripted/plain.gguf', answer: false, load: true }], thenLoads });
    expect(waitingLine(behindLoad('scripted/thinker.gguf', true))).toBe('Waiting for scripted/plain.gguf to load, then loading scripted/thinker.gguf.');
    expect(waitingLine(behindLoad('scripted/thinker.gguf', false))).toBe('Waiting for scripted/plain.gguf to load; this answer starts then.');
    expect(waitingLine(behindLoad('scripted/plain.gguf', false))).toBe('Loading scripted/plain.gguf into memory (asked from Models); the answer starts once it is loaded.');
  });
});
