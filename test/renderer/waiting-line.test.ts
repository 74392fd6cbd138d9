/**
 * The line an answer waiting on the built-in engine shows, for every kind of line before it (round 9, engine #2):
 * with several requests ahead, one of them a load asked from Models → Load, it said "Waiting for 2 requests before it
 * (on X, Y) to finish", never that a model was loading. Each row: the answer's state, what is ahead of it (loads, answers,
 * titles or summaries; on its own model or another), whether its own model loads after, and the line it must show.
 */
import { describe, expect, it } from 'vitest';
import type { WaitingAnswer } from '../../src/shared/library';
import { waitingLine } from '../../src/renderer/store/builtin-loading';

const Z = 'z.gguf';
type Ahead = Extract<WaitingAnswer, { state: 'queued' }>['ahead'][number];
const load = (file: string): Ahead => ({ file, answer: false, load: true });
const answer = (file: string): Ahead => ({ file, answer: true });
const title = (file: string): Ahead => ({ file, answer: false });
const queued = (ahead: Ahead[], thenLoads: boolean): WaitingAnswer => ({ turnId: 't', file: Z, state: 'queued', ahead, thenLoads });

const ROWS: [string, WaitingAnswer, string][] = [
  ['loading, nothing ahead', { turnId: 't', file: Z, state: 'loading' }, 'Loading z.gguf into memory; the answer starts once it is loaded.'],
  ['loaded, reading the conversation', { turnId: 't', file: Z, state: 'reading', tokens: 70_000 }, 'Reading the conversation (70,000 tokens); the answer starts once it is read.'],
  // One thing ahead.
  ['a load of its own model', queued([load(Z)], false), 'Loading z.gguf into memory (asked from Models); the answer starts once it is loaded.'],
  ['a load of its own model with another window', queued([load(Z)], true), "Waiting for z.gguf to load, then loading z.gguf again with this answer's context window."],
  ['a load of another model, its own held', queued([load('x.gguf')], false), 'Waiting for x.gguf to load; this answer starts then.'],
  ['a load of another model, its own to load', queued([load('x.gguf')], true), 'Waiting for x.gguf to load, then loading z.gguf.'],
  ['an answer on its own model', queued([answer(Z)], false), 'z.gguf is answering another message; this answer starts when that one ends.'],
  ['an answer on its own model with another window', queued([answer(Z)], true), "Waiting for the answer on z.gguf to finish, then loading z.gguf again with this answer's context window."],
  ['an answer on another model, its own held', queued([answer('y.gguf')], false), 'Waiting for the answer on y.gguf to finish; this answer starts then.'],
  ['an answer on another model, its own to load', queued([answer('y.gguf')], true), 'Waiting for the answer on y.gguf to finish, then loading z.gguf.'],
  ['a title on its own model', queued([title(Z)], false), 'Waiting for a title or summary being made on z.gguf to finish; this answer starts then.'],
  ['a title on another model, its own to load', queued([title('y.gguf')], true), 'Waiting for a title or summary being made on y.gguf to finish, then loading z.gguf.'],
  // Several ahead, a load among them (the defect).
  ['a load, then an answer on another model', queued([load('x.gguf'), answer('y.gguf')], true), 'Waiting for x.gguf to load and 1 answer on y.gguf to finish, then loading z.gguf.'],
  ['a load, then an answer, both on its own model', queued([load(Z), answer(Z)], false), 'Waiting for z.gguf to load and 1 answer on z.gguf to finish; this answer starts then.'],
  ['a load, then two answers on one model', queued([load('x.gguf'), answer('x.gguf'), answer('x.gguf')], true), 'Waiting for x.gguf to load and 2 answers on x.gguf to finish, then loading z.gguf.'],
  ['a load, then a title', queued([load('x.gguf'), title('x.gguf')], false), 'Waiting for x.gguf to load and a title or summary on x.gguf to finish; this answer starts then.'],
  [
    'a load, then an answer and a title on other models',
    queued([load('x.gguf'), answer('y.gguf'), title('x.gguf')], true),
    'Waiting for x.gguf to load, and for 1 answer on y.gguf and a title or summary on x.gguf to finish, then loading z.gguf.',
  ],
  // Several ahead, no load.
  ['two answers on two models', queued([answer('y.gguf'), answer(Z)], false), 'Waiting for 1 answer on y.gguf and 1 answer on z.gguf to finish; this answer starts then.'],
  ['two answers on its own model', queued([answer(Z), answer(Z)], false), 'Waiting for 2 answers on z.gguf to finish; this answer starts then.'],
  ['an answer and a title', queued([answer('y.gguf'), title(Z)], true), "Waiting for 1 answer on y.gguf and a title or summary on z.gguf to finish, then loading z.gguf again with this answer's context window."],
  ['two titles and an answer', queued([title('y.gguf'), answer('y.gguf'), title('y.gguf')], true), 'Waiting for 2 titles or summaries on y.gguf and 1 answer on y.gguf to finish, then loading z.gguf.'],
];

describe('the line of an answer waiting on the built-in engine', () => {
  it.each(ROWS)('%s', (_name, w, line) => {
    expect(waitingLine(w)).toBe(line);
  });

  // Every combination of up to three things ahead: the line names each model ahead, says a model loads exactly when
  // a load is ahead, says its own model loads after exactly when it does, and never falls back to a bare count.
  it('names every model ahead, each load, and what happens after, for every combination of up to three ahead', () => {
    const kinds = [load, answer, title];
    const files = ['x.gguf', Z];
    const items = kinds.flatMap((k) => files.map((f) => k(f)));
    const lines: Ahead[][] = [[]];
    for (let n = 0; n < 3; n++) for (const l of lines.filter((l) => l.length === n)) for (const i of items) lines.push([...l, i]);
    for (const ahead of lines.filter((l) => l.length > 0)) {
      for (const thenLoads of [false, true]) {
        const text = waitingLine(queued(ahead, thenLoads));
        const what = `${JSON.stringify(ahead)} thenLoads=${String(thenLoads)}: ${text}`;
        for (const a of ahead) expect(text, what).toContain(a.file);
        expect(/ to load\b|Loading z\.gguf into memory \(asked from Models\)/.test(text), what).toBe(ahead.some((a) => a.load));
        expect(/then loading z\.gguf/.test(text), what).toBe(thenLoads);
        expect(text, what).not.toMatch(/requests? before it/);
        expect(text, what).toMatch(/\.$/);
      }
    }
  });
});
