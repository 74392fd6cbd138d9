/**
 * Tabs #4: two answers on one built-in model (two tabs, or a regenerate) shared one "Loading model" line per model
 * file, which went from both when the first answer's load ended while the second still waited; and the second,
 * once the model was loaded, was not loading but waiting for the first to end (the engine runs one at a time).
 * Main now says per answer what it waits on (`builtin:waiting`, and `builtin:status` for a page that missed it).
 * The engine here is a stand-in whose events the test hands out, so the order is the test's, not a race's.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinRequests } from '../../../src/main/builtin/builtin-request';
import type { BuiltinService } from '../../../src/main/builtin/builtin-service';
import type { EngineEvent } from '../../../src/main/builtin/protocol';
import { WaitingAnswers } from '../../../src/main/builtin/waiting-answers';
import type { WaitingAnswer } from '../../../src/shared/library';

/** One generation's events, handed out by the test. */
class Generation {
  private queue: EngineEvent[][] = [];
  private wake: (() => void) | null = null;
  private ended = false;
  push(...events: EngineEvent[]): void {
    this.queue.push(events);
    if (events.some((e) => e.type === 'done' || e.type === 'error')) this.ended = true;
    this.wake?.();
  }
  async *events(): AsyncIterable<EngineEvent[]> {
    for (;;) {
      const batch = this.queue.shift();
      if (batch) {
        yield batch;
        if (this.ended && this.queue.length === 0) return;
        continue;
      }
      await new Promise<void>((r) => (this.wake = r));
    }
  }
}

const START: EngineEvent = { type: 'start', promptTokens: 3, cachedTokens: 0 };
const DONE: EngineEvent = { type: 'done', reason: 'eog', promptTokens: 3, completionTokens: 1, promptMs: 1, generationMs: 1 };

function setup(held: string[] = []) {
  const told: WaitingAnswer[][] = [];
  const generations: Generation[] = [];
  const waiting = new WaitingAnswers((w) => told.push(w), (file) => held.includes(file));
  const service = {
    deps: {
      log: () => undefined,
      library: { model: (file: string) => Promise.resolve({ entry: { path: `/models/${file}` }, info: { tokens: { addBos: false } }, template: { render: () => ({ prompt: 'Hi' }) } }) },
    },
    windowFor: () => Promise.resolve({ contextWindow: 4096 }),
    fitProblem: () => Promise.resolve(null),
    engine: () => ({
      request: () => Promise.resolve({ tokens: 3 }),
      generate: () => {
        const g = new Generation();
        generations.push(g);
        return g.events();
      },
    }),
    busy: () => undefined,
    makeRoom: () => Promise.resolve(),
    holds: (file: string) => held.includes(file),
    loadingFor: () => undefined,
    refresh: () => Promise.resolve(),
    waiting,
  } as unknown as BuiltinService;
  return { requests: new BuiltinRequests(service), told, generations, waiting };
}

/** Reads a response to its end. */
async function drain(body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const _chunk of body) void _chunk;
}

const body = (text: string, model = 'plain.gguf') => JSON.stringify({ model, messages: [{ role: 'user', content: text }] });

describe('answers waiting on the built-in engine', () => {
  it('each says its own state: the first one started leaves the second waiting for it, until the second starts', async () => {
    const { requests, told, generations, waiting } = setup();
    const signal = new AbortController().signal;
    const first = await requests.send(body('one'), signal, 'a1');
    const second = await requests.send(body('two'), signal, 'a2');
    const queued: WaitingAnswer = { turnId: 'a2', file: 'plain.gguf', state: 'queued', ahead: [{ file: 'plain.gguf', answer: true }], thenLoads: false };
    expect(waiting.list()).toEqual([{ turnId: 'a1', file: 'plain.gguf', state: 'loading' }, queued]);
    const reading = [drain(first.body), drain(second.body)];
    generations[0]!.push(START);
    await expect.poll(() => told.at(-1)).toEqual([queued]);
    generations[0]!.push(DONE);
    generations[1]!.push(START);
    await expect.poll(() => told.at(-1)).toEqual([]);
    generations[1]!.push(DONE);
    await Promise.all(reading);
    expect(told).toEqual([[{ turnId: 'a1', file: 'plain.gguf', state: 'loading' }], [{ turnId: 'a1', file: 'plain.gguf', state: 'loading' }, queued], [queued], []]);
  });

  it('makes the second the one loading where the first is stopped before its model loaded', async () => {
    const { requests, generations, waiting } = setup();
    const stop = new AbortController();
    const first = await requests.send(body('one'), stop.signal, 'a1');
    const second = await requests.send(body('two'), new AbortController().signal, 'a2');
    const reading = drain(first.body).catch(() => undefined);
    stop.abort();
    generations[0]!.push({ type: 'done', reason: 'abort', promptTokens: 0, completionTokens: 0, promptMs: 0, generationMs: 0 });
    await reading;
    await expect.poll(() => waiting.list()).toEqual([{ turnId: 'a2', file: 'plain.gguf', state: 'loading' }]);
    const rest = drain(second.body);
    generations[1]!.push(START, DONE);
    await rest;
    expect(waiting.list()).toEqual([]);
  });

  it('a model asked with another window is loaded again for that answer (a new context) once the first ends', () => {
    const w = new WaitingAnswers(() => undefined);
    w.join('a1', 'plain.gguf', 4096).started();
    w.join('a2', 'plain.gguf', 8192);
    expect(w.list()).toEqual([{ turnId: 'a2', file: 'plain.gguf', state: 'queued', ahead: [{ file: 'plain.gguf', answer: true }], thenLoads: true }]);
  });

  // Round 7, engine #1: the engine answers one model at a time. An answer on thinker.gguf sent while plain.gguf was
  // answering said "Loading thinker.gguf" for as long as the other answer ran, and only then was it loaded.
  it('behind an answer on another model says it waits for that answer and then loads its own, and loads once it ends', async () => {
    const { requests, told, generations, waiting } = setup(['plain.gguf']);
    const signal = new AbortController().signal;
    const first = await requests.send(body('one'), signal, 'a1');
    const reading = [drain(first.body)];
    generations[0]!.push(START);
    const second = await requests.send(body('two', 'thinker.gguf'), signal, 'a2');
    reading.push(drain(second.body));
    expect(waiting.list()).toEqual([{ turnId: 'a2', file: 'thinker.gguf', state: 'queued', ahead: [{ file: 'plain.gguf', answer: true }], thenLoads: true }]);
    generations[0]!.push(DONE);
    await expect.poll(() => told.at(-1)).toEqual([{ turnId: 'a2', file: 'thinker.gguf', state: 'loading' }]);
    generations[1]!.push(START, DONE);
    await Promise.all(reading);
    expect(told.at(-1)).toEqual([]);
  });

  it('a lane\'s request (a title) counts in the line, and a model the engine holds is not said to load', () => {
    const w = new WaitingAnswers(() => undefined, (file) => file === 'thinker.gguf');
    const title = w.join(undefined, 'plain.gguf', 4096);
    w.join('a2', 'thinker.gguf', 4096);
    w.join('a3', 'plain.gguf', 4096);
    expect(w.list()).toEqual([
      { turnId: 'a2', file: 'thinker.gguf', state: 'queued', ahead: [{ file: 'plain.gguf', answer: false }], thenLoads: false },
      { turnId: 'a3', file: 'plain.gguf', state: 'queued', ahead: [{ file: 'plain.gguf', answer: false }, { file: 'thinker.gguf', answer: true }], thenLoads: false },
    ]);
    title.ended();
    // First in line on a model the engine holds: reading its prompt, not waiting on a load.
    expect(w.list()).toEqual([{ turnId: 'a3', file: 'plain.gguf', state: 'queued', ahead: [{ file: 'thinker.gguf', answer: true }], thenLoads: true }]);
  });

  // A step that stopped itself before reading its answer left it in the line for good: every later answer said it
  // waited behind it.
  it('lets an answer stopped before its body was read leave the line once its generation ends', async () => {
    const { requests, generations, waiting } = setup();
    const stop = new AbortController();
    const unread = await requests.send(body('one'), stop.signal, 'a1');
    const next = await requests.send(body('two'), new AbortController().signal, 'a2');
    stop.abort();
    generations[0]!.push({ type: 'done', reason: 'abort', promptTokens: 0, completionTokens: 0, promptMs: 0, generationMs: 0 });
    await expect.poll(() => waiting.list()).toEqual([{ turnId: 'a2', file: 'plain.gguf', state: 'loading' }]);
    // Read after all, it says it was stopped.
    await expect(drain(unread.body)).rejects.toThrow('Stopped.');
    const rest = drain(next.body);
    generations[1]!.push(START, DONE);
    await rest;
    expect(waiting.list()).toEqual([]);
  });

  // Stop while the engine loaded the model (a native load it cannot stop half-way: seconds to minutes on a CPU) took
  // effect only once the load had ended.
  it('ends an answer at once on Stop while its model loads, and leaves the line only when the engine has ended it', async () => {
    const { requests, generations, waiting } = setup();
    const stop = new AbortController();
    const first = await requests.send(body('one'), stop.signal, 'a1');
    const reading = drain(first.body);
    stop.abort();
    await expect(reading).rejects.toThrow('Stopped.');
    // The engine is still loading it: the next answer waits behind it, and says so.
    await requests.send(body('two'), new AbortController().signal, 'a2');
    expect(waiting.list().map((w) => w.state)).toEqual(['loading', 'queued']);
    generations[0]!.push({ type: 'done', reason: 'abort', promptTokens: 0, completionTokens: 0, promptMs: 0, generationMs: 0 });
    await expect.poll(() => waiting.list()).toEqual([{ turnId: 'a2', file: 'plain.gguf', state: 'loading' }]);
  });

  // Builtin audit #7: once its model loaded, a 71K-token chat sat on a bare "…" for 70 s while the engine read it.
  it('says it reads the conversation, with the tokens not cached, from the end of the load to the first token', async () => {
    const { requests, told, generations, waiting } = setup();
    const answer = await requests.send(body('one'), new AbortController().signal, 'a1');
    const read = drain(answer.body);
    generations[0]!.push({ type: 'start', promptTokens: 71_000, cachedTokens: 1_000 });
    await expect.poll(() => waiting.list()).toEqual([{ turnId: 'a1', file: 'plain.gguf', state: 'reading', tokens: 70_000 }]);
    generations[0]!.push({ type: 'text', text: 'Hi' });
    await expect.poll(() => waiting.list()).toEqual([]);
    generations[0]!.push(DONE);
    await read;
    expect(told.map((w) => w.map((x) => x.state))).toEqual([['loading'], ['reading'], []]);
  });

  it('says nothing of a short read, or of one that came with the first token', async () => {
    const { requests, told, generations } = setup(['plain.gguf']);
    const short = await requests.send(body('one'), new AbortController().signal, 'a1');
    const reading = drain(short.body);
    generations[0]!.push({ type: 'start', promptTokens: 900, cachedTokens: 500 });
    generations[0]!.push(DONE);
    await reading;
    const quick = await requests.send(body('two'), new AbortController().signal, 'a2');
    generations[1]!.push({ type: 'start', promptTokens: 9_000, cachedTokens: 0 }, { type: 'text', text: 'Hi' }, DONE);
    await drain(quick.body);
    expect(told.flat()).toEqual([]);
  });
});
