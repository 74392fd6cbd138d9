import { describe, expect, it } from 'vitest';
import { openaiDialect } from '../../../src/main/dialects/openai/index';
import { normalizeStream } from '../../../src/main/engine/normalize-stream';
import { cutBytes, iterate } from '../../../src/main/leg/chunking';
import { MAX_LINE_CHARS } from '../../../src/main/leg/framing';
import type { StreamPart } from '../../../src/shared/parts';

const enc = new TextEncoder();
async function parts(chunks: Uint8Array[]): Promise<StreamPart[]> {
  const out: StreamPart[] = [];
  for await (const p of normalizeStream(iterate(chunks), openaiDialect)) out.push(p);
  return out;
}

describe('normalizeStream', () => {
  it('parses a pretty-printed non-streaming body whole for an SSE dialect, at any chunking', async () => {
    const body = enc.encode('\n{\n  "choices": [\n    { "index": 0, "finish_reason": "stop",\n      "message": { "role": "assistant", "content": "Hi there" } }\n  ]\n}\n');
    const whole = await parts([body]);
    expect(whole.filter((p) => p.type === 'text-delta')).toEqual([{ type: 'text-delta', id: expect.any(String), delta: 'Hi there' }]);
    expect(whole.at(-1)).toEqual({ type: 'finish', wireReason: 'stop', stop: 'end_turn' });
    expect(await parts(cutBytes(body, { kind: 'fixed', size: 1 }))).toEqual(whole);
  });

  it('an empty body is a cut', async () => {
    expect(await parts([])).toEqual([{ type: 'finish', wireReason: null, stop: 'cut' }]);
  });

  it('a runaway line becomes an error part and an error finish instead of unbounded memory', async () => {
    const out = await parts([enc.encode('data: {"choices":[{"delta":{"content":"a'), enc.encode('x'.repeat(MAX_LINE_CHARS))]);
    expect(out[0]).toMatchObject({ type: 'error', code: 'framing' });
    expect(out.at(-1)).toMatchObject({ type: 'finish', stop: 'error' });
  });

  it('rethrows transport errors untouched', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield enc.encode('data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\n');
      throw new Error('socket reset');
    }
    const seen: StreamPart[] = [];
    await expect(async () => {
      for await (const p of normalizeStream(broken(), openaiDialect)) seen.push(p);
    }).rejects.toThrow('socket reset');
    expect(seen.some((p) => p.type === 'finish')).toBe(false);
  });

  it('settles what the parser holds before rethrowing: held-back bytes and open tool calls (issue 16)', async () => {
    async function* stopped(): AsyncGenerator<Uint8Array> {
      yield enc.encode('data: {"choices":[{"index":0,"delta":{"content":"The answer is 3 <"}}]}\n\n');
      yield enc.encode('data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{\\"a"}}]}}]}\n\n');
      throw new Error('Stopped.');
    }
    const seen: StreamPart[] = [];
    await expect(async () => {
      for await (const p of normalizeStream(stopped(), openaiDialect)) seen.push(p);
    }).rejects.toThrow('Stopped.');
    expect(seen.filter((p) => p.type === 'text-delta').map((p) => (p.type === 'text-delta' ? p.delta : '')).join('')).toBe('The answer is 3 <');
    expect(seen.filter((p) => p.type === 'tool-call-end')).toEqual([expect.objectContaining({ state: 'truncated' })]);
    expect(seen.some((p) => p.type === 'finish')).toBe(false);
  });
});
