/**
 * SseEvents (one pass) against what it replaced (issue 20): LegacyErrorField in front of eventsource-parser, both
 * fed by the same streaming TextDecoder. Generated streams of every line kind SSE and llama.cpp send, with CR, LF
 * and CRLF ends, a stray U+FEFF, multi-byte characters, cut at random byte offsets (mid-character included): the
 * events must be the same, and the same for every cut.
 */
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../../src/main/dialects/types';
import { iterate } from '../../../src/main/leg/chunking';
import { frameEvents } from '../../../src/main/leg/framing';
import { LegacyErrorField } from './reference/legacy-error-field';

const shape = (e: WireEvent): WireEvent => (e.event === undefined ? { data: e.data } : { event: e.event, data: e.data });

function reference(chunks: readonly Uint8Array[]): WireEvent[] {
  const out: WireEvent[] = [];
  const decoder = new TextDecoder('utf-8');
  const parser = createParser({ onEvent: (e) => out.push(shape(e)) });
  const legacy = new LegacyErrorField();
  for (const chunk of chunks) parser.feed(legacy.push(decoder.decode(chunk, { stream: true })));
  parser.feed(legacy.push(decoder.decode()) + legacy.flush() + '\n\n');
  return out;
}

async function framed(chunks: readonly Uint8Array[]): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of frameEvents(iterate([...chunks]), 'sse')) out.push(shape(e));
  return out;
}

function cut(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of at) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out;
}

const LINES = [
  'data: {"choices":[{"delta":{"content":"Köln — 日本 🚀"}}]}',
  'data:x',
  'data: ',
  'data',
  'datax: y',
  'event: content_block_delta',
  'event:',
  'event',
  'events: 1',
  'error: {"code":400,"message":"too long"}',
  'error:',
  'error',
  'erro',
  'errors: 1',
  ' error: x',
  ': ping',
  ':',
  'id: 7',
  'retry: 10',
  'retry: x',
  'unknown: value',
  'x',
  'data: [DONE]',
  '',
];
const line = fc.constantFrom(...LINES);
const end = fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\r\n\r\n');

describe('SseEvents: the same events as eventsource-parser behind LegacyErrorField', () => {
  it('property: any stream of SSE lines, cut anywhere, frames as the reference frames it whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        // The decoder takes one byte-order mark; a second is the parser's to skip.
        fc.constantFrom('', '\uFEFF', '\uFEFF\uFEFF'),
        fc.array(fc.tuple(line, end), { maxLength: 14 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (bom, lines, terminated, points) => {
          let text = bom + lines.map(([l, e]) => l + e).join('');
          if (!terminated && lines.length > 0) text = text.replace(/[\r\n]+$/, '');
          const bytes = new TextEncoder().encode(text);
          const want = reference([bytes]);
          expect(await framed([bytes])).toEqual(want);
          expect(await framed(cut(bytes, points))).toEqual(want);
          expect(reference(cut(bytes, points))).toEqual(want);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('every one-byte cut of a stream with each line kind', async () => {
    const text = `\uFEFF\uFEFF${LINES.join('\r\n')}\r\r\n${LINES.join('\r')}\n\n${LINES.join('\n')}\n\n${LINES.join('\r\n\r\n')}`;
    const bytes = new TextEncoder().encode(text);
    const want = reference([bytes]);
    expect(want.length).toBeGreaterThanOrEqual(10);
    expect(want).toContainEqual({ event: 'error', data: '{"code":400,"message":"too long"}' });
    const ones = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    expect(await framed(ones)).toEqual(want);
    for (let at = 0; at <= bytes.length; at++) expect(await framed([bytes.subarray(0, at), bytes.subarray(at)])).toEqual(want);
  });
});
