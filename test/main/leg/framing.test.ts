import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../../src/main/dialects/types';
import { cutBytes, iterate } from '../../../src/main/leg/chunking';
import { FramingError, frameEvents, MAX_LINE_CHARS } from '../../../src/main/leg/framing';

const repoRoot = path.resolve(__dirname, '../../..');
const enc = new TextEncoder();

async function collect(chunks: Uint8Array[], framing: 'sse' | 'ndjson'): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of frameEvents(iterate(chunks), framing)) out.push(e);
  return out;
}

/** Every way of cutting `bytes` in two gives the same events as the whole. */
async function expectEveryBoundary(bytes: Uint8Array, framing: 'sse' | 'ndjson'): Promise<WireEvent[]> {
  const whole = await collect([bytes], framing);
  for (let at = 0; at <= bytes.length; at++) {
    expect(await collect([bytes.subarray(0, at), bytes.subarray(at)], framing)).toEqual(whole);
  }
  expect(await collect(cutBytes(bytes, { kind: 'fixed', size: 1 }), framing)).toEqual(whole);
  return whole;
}

describe('frameEvents: SSE', () => {
  it('gives the same events for every chunk boundary of a real llama-server stream', async () => {
    const bytes = readFileSync(path.resolve(repoRoot, '../shared/conformance/llama-server/c-toolcall-stream-deepseek.sse'));
    const events = await expectEveryBoundary(bytes, 'sse');
    expect(events).toHaveLength(7);
    expect(events.at(-1)).toEqual({ data: '[DONE]' });
  });

  it('ignores comments, accepts CRLF and keeps multi-byte characters cut mid-sequence', async () => {
    const bytes = readFileSync(path.resolve(repoRoot, 'test/fixtures/openai/comments-crlf.sse'));
    const events = await expectEveryBoundary(bytes, 'sse');
    expect(events.some((e) => e.data.includes(': ping') || e.data.includes('keep-alive'))).toBe(false);
    expect(events.map((e) => e.data).join('')).toContain('Köln — 日本');
    expect(events).toHaveLength(5);
  });

  it('delivers named events and [DONE] as plain events', async () => {
    const events = await collect([enc.encode('event: error\ndata: {"error":{"message":"x"}}\n\ndata: [DONE]\n\n')], 'sse');
    expect(events).toEqual([{ event: 'error', data: '{"error":{"message":"x"}}' }, { data: '[DONE]' }]);
  });

  it('delivers a last event that has no blank line after it', async () => {
    expect(await collect([enc.encode('data: {"a":1}\n\ndata: {"b":2}')], 'sse')).toEqual([{ data: '{"a":1}' }, { data: '{"b":2}' }]);
  });

  it('stops with a clear error on an event longer than the cap', async () => {
    const big = enc.encode(`data: ${'x'.repeat(MAX_LINE_CHARS + 10)}`);
    await expect(collect([big], 'sse')).rejects.toThrow(FramingError);
    await expect(collect([big], 'sse')).rejects.toThrow(/longer than 16 MiB/);
  });
});

describe('frameEvents: NDJSON', () => {
  const text = '{"message":{"content":"Grüße 日本"},"done":false}\r\n\n  \n{"done":true,"done_reason":"stop"}';

  it('skips blank lines, strips CR, and delivers a last line without newline', async () => {
    const events = await expectEveryBoundary(enc.encode(text), 'ndjson');
    expect(events).toEqual([{ data: '{"message":{"content":"Grüße 日本"},"done":false}' }, { data: '{"done":true,"done_reason":"stop"}' }]);
  });

  it('survives random cuts mid-UTF-8', async () => {
    const bytes = enc.encode(text);
    const whole = await collect([bytes], 'ndjson');
    for (const seed of [1, 2, 3, 4]) expect(await collect(cutBytes(bytes, { kind: 'random', seed }), 'ndjson')).toEqual(whole);
  });

  it('stops with a clear error on a line longer than the cap', async () => {
    const chunk = enc.encode('x'.repeat(1024 * 1024));
    const chunks = Array.from({ length: 17 }, () => chunk);
    await expect(collect(chunks, 'ndjson')).rejects.toThrow(/longer than 16 MiB without a line break/);
  });
});
