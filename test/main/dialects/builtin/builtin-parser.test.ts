import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replay, replayWith } from '../../../../src/main/cli/replay';
import { builtinDialect } from '../../../../src/main/dialects/builtin/index';
import { readCall } from '../../../../src/main/dialects/builtin/hermes-calls';
import { engineEventLine, type EngineEvent } from '../../../../src/main/builtin/protocol';
import { builtinTools } from '../../../../src/main/tools/registry';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/builtin/${name}`, import.meta.url));
const tools = builtinTools().schemas();
const wire = (events: EngineEvent[]) => new TextEncoder().encode(events.map(engineEventLine).join(''));
const text = (...pieces: string[]): EngineEvent[] => pieces.map((t) => ({ type: 'text', text: t }));
const done = (reason: 'eog' | 'length' | 'context-full' = 'eog'): EngineEvent => ({ type: 'done', reason, promptTokens: 10, completionTokens: 5, promptMs: 1, generationMs: 2 });

describe('builtin dialect: recorded engine runs (test/fixtures/builtin)', () => {
  it('reasoning, then a call whose tags came in split pieces: reasoning apart, one complete call, tool_use', async () => {
    for (const chunk of [{ kind: 'whole' } as const, { kind: 'fixed', size: 7 } as const, { kind: 'random', seed: 3 } as const]) {
      const r = await replay(fixture('reasoning-then-call.ndjson'), { tools, chunk });
      expect(r).toMatchObject({ dialect: 'builtin', wire_reason: 'stop', stop: 'tool_use', reasoning: 'The user wants the time.', content: '' });
      expect(r.tool_calls).toEqual([{ id: 'call_0', name: 'current_datetime', arguments: { timezone: 'Europe/Paris' } }]);
      expect(r.usage).toEqual({ input_tokens: 1935, output_tokens: expect.any(Number) });
    }
  });

  it('malformed arguments: an invalid call with the JSON error, and the derived stop is not tool_use', async () => {
    const r = await replay(fixture('malformed-call.ndjson'), { tools });
    expect(r.tool_calls).toEqual([]);
    expect(r.invalid_calls).toEqual([{ id: 'call_0', name: 'current_datetime', arguments_raw: '{"timezone": "Europe/Paris",}', error: expect.stringMatching(/not valid JSON/) }]);
    expect(r.stop).toBe('end_turn');
  });

  it('two calls, the newline between them dropped; an unclosed think is all reasoning; the token limit is max_tokens', async () => {
    const two = await replay(fixture('two-calls.ndjson'), { tools });
    expect(two.tool_calls.map((c) => c.arguments)).toEqual([{ timezone: 'Europe/Paris' }, { timezone: 'Asia/Tokyo' }]);
    expect(two.runs.filter((r) => r.kind === 'text')).toEqual([]);
    const unclosed = await replay(fixture('unclosed-think.ndjson'));
    expect(unclosed).toMatchObject({ stop: 'end_turn', content: '', reasoning: 'The user asks about the weather and I keep wondering' });
    const long = await replay(fixture('long-max-tokens.ndjson'));
    expect(long).toMatchObject({ wire_reason: 'length', stop: 'max_tokens', content: expect.stringMatching(/^Counting sheep slowly/) });
  });
});

describe('builtin dialect: edges', () => {
  it('a <tool_call> written inside reasoning stays reasoning', async () => {
    const r = await replayWith(wire([...text('<think>I could write <tool_call>{"name": "x"}</tool_call> here</think>', 'Done.'), done()]), builtinDialect, { tools });
    expect(r).toMatchObject({ stop: 'end_turn', content: 'Done.', tool_calls: [], invalid_calls: [] });
    expect(r.reasoning).toContain('<tool_call>');
  });

  it('a call cut off by the token limit fails as truncated; max_tokens', async () => {
    const r = await replayWith(wire([...text('<tool_call>\n{"name": "current_datetime", "argu'), done('length')]), builtinDialect, { tools });
    expect(r.stop).toBe('max_tokens');
    expect(r.invalid_calls).toEqual([{ id: 'call_0', name: 'current_datetime', arguments_raw: expect.any(String), error: expect.stringMatching(/cut off/) }]);
  });

  it('a full window is its own stop, not the token limit; an engine error ends the answer as an error, keeping the text', async () => {
    expect(await replayWith(wire([...text('Hi'), done('context-full')]), builtinDialect)).toMatchObject({ stop: 'context_full', content: 'Hi' });
    const r = await replayWith(wire([...text('Partial answer'), { type: 'error', message: 'The built-in engine stopped unexpectedly (signal SIGKILL).' }]), builtinDialect);
    expect(r).toMatchObject({ stop: 'error', content: 'Partial answer', error: expect.stringMatching(/SIGKILL/) });
  });

  it('an engine error with a blank reason says the engine failed, not nothing', async () => {
    const r = await replayWith(wire([{ type: 'error', message: '  ' }]), builtinDialect);
    expect(r).toMatchObject({ stop: 'error', error: 'The built-in engine failed without saying why.' });
  });

  it('a stream with no done is cut', async () => {
    expect((await replayWith(wire(text('Half an')), builtinDialect)).stop).toBe('cut');
  });

  it('reads call bodies, and what it can of broken ones', () => {
    expect(readCall('{"name": "f", "arguments": {"a": 1}}')).toEqual({ name: 'f', args: '{"a":1}' });
    expect(readCall('{"name": "f", "arguments": "{\\"a\\": 1}"}')).toEqual({ name: 'f', args: '{"a": 1}' });
    expect(readCall('{"name": "f", "arguments": {"a": 1,}}')).toEqual({ name: 'f', args: '{"a": 1,}' });
    expect(readCall('garbage')).toEqual({ name: '', args: 'garbage' });
  });
});
