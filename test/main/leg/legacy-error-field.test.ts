import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameEvents } from '../../../src/main/leg/framing';
import { LegacyErrorField } from '../../../src/main/leg/legacy-error-field';
import { cutBytes, iterate } from '../../../src/main/leg/chunking';
import type { WireEvent } from '../../../src/main/dialects/types';

const LEGACY = 'error: {"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"invalid_request_error"}\n\ndata: [DONE]\n\n';

function rewrite(pieces: readonly string[]): string {
  const field = new LegacyErrorField();
  return pieces.map((p) => field.push(p)).join('') + field.flush();
}

async function events(text: string, size: number): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of frameEvents(iterate(cutBytes(new TextEncoder().encode(text), size === 0 ? { kind: 'whole' } : { kind: 'fixed', size })), 'sse')) out.push(e);
  return out;
}

describe("llama.cpp's legacy `error:` SSE field", () => {
  it('becomes an error event, whatever the chunking (issue 16)', async () => {
    const want = [
      { event: 'error', data: '{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"invalid_request_error"}' },
      { data: '[DONE]' },
    ];
    for (const size of [0, 1, 2, 3, 5, 6, 7, 64]) expect(await events(LEGACY, size), `chunk ${size}`).toEqual(want);
  });

  it('rewrites only a line that starts with the field name; everything else passes byte for byte', () => {
    expect(rewrite(['data: {"error: x"}\n\n'])).toBe('data: {"error: x"}\n\n');
    expect(rewrite(['errors: 1\n', 'erro', 'r:x\r\n', 'event: e\n'])).toBe('errors: 1\nevent: error\ndata:x\r\nevent: e\n');
    expect(rewrite(['data: a\n', 'err'])).toBe('data: a\nerr');
  });

  it('property: any cut of the text rewrites to the same output as the whole text', () => {
    const line = fc.constantFrom('error: {"a":1}', 'data: x', 'error:', 'erro', 'event: error', ': ping', '', 'e', 'xerror: y');
    const sep = fc.constantFrom('\n', '\r\n', '\r', '\n\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(line, sep), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (lines, cuts) => {
        const text = lines.map(([l, s]) => l + s).join('');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const pieces: string[] = [];
        let from = 0;
        for (const p of points) {
          pieces.push(text.slice(from, p));
          from = p;
        }
        pieces.push(text.slice(from));
        expect(rewrite(pieces)).toBe(rewrite([text]));
      }),
      { numRuns: 500 },
    );
  });

  it('property: rewrites exactly the lines that start with the field, as a plain reading of the whole text would', () => {
    const line = fc.constantFrom('error: {"a":1}', 'data: {"e":"error:"}', 'error:', 'erro', 'rror:', 'event: error', '', 'xerror: y', 'eerror:');
    const sep = fc.constantFrom('\n', '\r\n', '\r', '\n\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(line, sep), { maxLength: 10 }), (lines) => {
        const text = lines.map(([l, s]) => l + s).join('');
        expect(rewrite([text])).toBe(text.replace(/(^|[\r\n])error:/g, '$1event: error\ndata:'));
      }),
      { numRuns: 500 },
    );
  });
});
