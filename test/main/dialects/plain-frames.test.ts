/**
 * A dialect reads a token frame by its plain hole alone (FrameTemplate.readPlain) only where that is exactly what
 * reading the whole frame would do. Random streams of each dialect's frames, built so that templates form and then
 * meet frames that mean more (a finish, usage, reasoning, tool calls, an error, a second choice, another varying
 * field), give the same parts, event by event, as the same parser with every frame read by JSON.parse.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDialect } from '../../../src/main/dialects/registry';
import { FrameTemplate } from '../../../src/main/dialects/shared/frame-template';
import type { DialectId, WireEvent } from '../../../src/main/dialects/types';
import { prng } from '../../../src/main/leg/chunking';
import type { StreamPart } from '../../../src/shared/parts';

type Pick = () => number;
const TEXTS = ['', 'a', ' b', '<think>', '</think>', '<thi', 'nk>', '\n', 'é 🚀', 'x"y', '{"a":', '1}'];
const text = (pick: Pick): string => TEXTS[Math.floor(pick() * TEXTS.length)]!;
const chance = (pick: Pick, p: number): boolean => pick() < p;
/** The element a number in [0, 1) points at. */
const nth = <T,>(xs: readonly T[], u: number): T => xs[Math.floor(u * xs.length)]!;
const oneOf = <T,>(pick: Pick, xs: readonly T[]): T => nth(xs, pick());

/**
 * A run's fixed choices: which fields its frames carry, and which vary (strings only, so the frames share one
 * shape and a template forms with those fields in it). Each frame also strays now and then.
 */
type Run = Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f', number>;

/** One OpenAI chunk: content, with whatever else push reads fixed or varying over the run. */
function openaiFrame(run: Run, pick: Pick): WireEvent {
  const delta: Record<string, unknown> = {};
  if (run.a < 0.7 || chance(pick, 0.05)) delta['content'] = run.a < 0.1 ? 'k' : text(pick);
  if (run.b < 0.4 || chance(pick, 0.03)) delta[run.b < 0.2 ? 'reasoning_content' : 'reasoning'] = run.c < 0.7 ? text(pick) : 'r';
  if (run.c < 0.1 || chance(pick, 0.02)) delta['tool_calls'] = [{ index: run.a < 0.5 ? 0 : 1, function: { arguments: text(pick) } }];
  if (run.d < 0.1) delta['role'] = run.e < 0.5 ? oneOf(pick, ['assistant', 'tool']) : 'assistant';
  const finish = run.e < 0.15 ? (run.f < 0.5 ? oneOf(pick, ['stop', 'length', 'tool_calls', '']) : chance(pick, 0.2) ? 'length' : 'stop') : chance(pick, 0.02) ? 'length' : null;
  const choice = { index: 0, delta, finish_reason: finish };
  const chunk: Record<string, unknown> = { id: run.f < 0.3 ? oneOf(pick, ['c1', 'c2']) : 'c', object: 'chat.completion.chunk' };
  chunk['choices'] = run.d > 0.9 ? [{ index: 1, delta: { content: text(pick) }, finish_reason: null }, choice] : [choice];
  if (run.b > 0.9 || chance(pick, 0.01)) chunk['usage'] = { prompt_tokens: 3, completion_tokens: Math.floor(pick() * 9) };
  if (run.c > 0.92) chunk['timings'] = { prompt_n: 1, predicted_n: 2, note: text(pick) };
  if (chance(pick, 0.003)) chunk['error'] = { message: text(pick) };
  return { data: JSON.stringify(chunk), ...(chance(pick, 0.003) ? { event: 'error' } : {}) };
}

/** One Ollama line: content, with thinking, tool calls, done or an error fixed or varying over the run. */
function ollamaFrame(run: Run, pick: Pick): WireEvent {
  const message: Record<string, unknown> = { role: run.e < 0.1 ? text(pick) : 'assistant', content: run.a < 0.3 ? '' : run.a > 0.85 ? 'k' : text(pick) };
  if (run.b < 0.5 || chance(pick, 0.03)) message['thinking'] = run.c < 0.7 ? text(pick) : oneOf(pick, ['', 't']);
  if (run.d < 0.1 || chance(pick, 0.01)) message['tool_calls'] = [{ function: { name: 'f', arguments: { a: text(pick) } } }];
  const line: Record<string, unknown> = { model: 'm', created_at: run.f < 0.5 ? oneOf(pick, ['t1', 't2']) : 't', message, done: chance(pick, 0.01) };
  if (line['done'] === true) line['done_reason'] = oneOf(pick, ['stop', 'length']);
  if (run.e > 0.95) line['done_reason'] = text(pick);
  if (chance(pick, 0.003)) line['error'] = text(pick);
  return { data: JSON.stringify(line) };
}

/** One Anthropic event: block starts and stops, and runs of deltas of every type (some to blocks not open). */
function anthropicFrame(run: Run, pick: Pick): WireEvent {
  const index = chance(pick, 0.95) ? Math.floor(run.a * 3) : Math.floor(pick() * 4);
  const r = pick();
  let data: Record<string, unknown>;
  if (r < 0.05) {
    const type = oneOf(pick, ['text', 'thinking', 'tool_use', 'redacted_thinking']);
    data = { type: 'content_block_start', index, content_block: type === 'tool_use' ? { type, id: 't', name: 'f', input: {} } : { type } };
  } else if (r < 0.08) {
    data = { type: 'content_block_stop', index };
  } else if (r < 0.09) {
    data = { type: 'message_delta', delta: { stop_reason: oneOf(pick, ['end_turn', 'max_tokens']) }, usage: { output_tokens: 5 } };
  } else {
    const type = run.b < 0.2 ? oneOf(pick, ['text_delta', 'thinking_delta', 'input_json_delta', 'signature_delta']) : nth(['text_delta', 'text_delta', 'thinking_delta', 'input_json_delta', 'signature_delta'], run.b);
    const field = run.c < 0.1 ? 'text' : type === 'text_delta' ? 'text' : type === 'thinking_delta' ? 'thinking' : type === 'input_json_delta' ? 'partial_json' : 'signature';
    data = { type: run.d < 0.1 ? oneOf(pick, ['content_block_delta', 'content_block_stop']) : 'content_block_delta', index, delta: { type, [field]: text(pick) } };
    if (run.e < 0.2) data['id'] = oneOf(pick, ['e1', 'e2']);
  }
  return { data: JSON.stringify(data), event: String(data['type']) };
}

const FRAMES: Record<'openai' | 'ollama' | 'anthropic', (run: Run, pick: Pick) => WireEvent> = {
  openai: openaiFrame,
  ollama: ollamaFrame,
  anthropic: anthropicFrame,
};

/** A stream: runs of frames that share their fixed choices (so templates form), varying as above. */
function stream(dialect: keyof typeof FRAMES, seed: number): WireEvent[] {
  const pick = prng(seed);
  const events: WireEvent[] = [];
  while (events.length < 80) {
    const run: Run = { a: pick(), b: pick(), c: pick(), d: pick(), e: pick(), f: pick() };
    const length = 1 + Math.floor(pick() * 12);
    for (let i = 0; i < length; i++) events.push(FRAMES[dialect](run, pick));
  }
  return events;
}

function partsOf(dialect: DialectId, events: readonly WireEvent[], thinkOpen: boolean): StreamPart[][] {
  const parser = getDialect(dialect).createParser({ thinkOpen });
  const out = events.map((e) => parser.push(e));
  out.push(parser.end());
  return out;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('reading a frame by its plain hole gives the parts reading the whole frame gives', () => {
  for (const dialect of ['openai', 'ollama', 'anthropic'] as const) {
    it(dialect, () => {
      let plainHits = 0;
      fc.assert(
        fc.property(fc.integer(), fc.boolean(), (seed, thinkOpen) => {
          const events = stream(dialect, seed);
          const parse = vi.spyOn(FrameTemplate.prototype, 'parse').mockImplementation((t: string): unknown => JSON.parse(t));
          const plain = vi.spyOn(FrameTemplate.prototype, 'readPlain').mockImplementation(() => undefined);
          const expected = partsOf(dialect, events, thinkOpen);
          parse.mockRestore();
          plain.mockRestore();
          const original = FrameTemplate.prototype.readPlain;
          vi.spyOn(FrameTemplate.prototype, 'readPlain').mockImplementation(function (this: FrameTemplate, t: string): string | undefined {
            const value = original.call(this, t);
            if (value !== undefined) plainHits++;
            return value;
          });
          expect(partsOf(dialect, events, thinkOpen)).toStrictEqual(expected);
          vi.restoreAllMocks();
        }),
        { numRuns: 200 },
      );
      // The shortcut itself was tested, not only the parse it falls back to.
      expect(plainHits).toBeGreaterThan(1000);
    });
  }

  it('openai: content frames that carry a finish reason are read whole, so a later one sets it again', () => {
    const frame = (content: string, finish: string) => ({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: finish }] }) });
    const events = [frame('a', 'stop'), frame('b', 'stop'), frame('c', 'stop'), frame('d', 'length'), frame('e', 'stop')];
    const parse = vi.spyOn(FrameTemplate.prototype, 'parse').mockImplementation((t: string): unknown => JSON.parse(t));
    const plain = vi.spyOn(FrameTemplate.prototype, 'readPlain').mockImplementation(() => undefined);
    const expected = partsOf('openai', events, false);
    parse.mockRestore();
    plain.mockRestore();
    const parts = partsOf('openai', events, false);
    expect(parts).toStrictEqual(expected);
    expect(parts.at(-1)!.find((p) => p.type === 'finish')).toMatchObject({ wireReason: 'stop' });
  });
});
