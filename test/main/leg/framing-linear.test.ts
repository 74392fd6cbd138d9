/**
 * Issue 12: framing is linear in the bytes received, proven by counting work, not by timing it. Every newline
 * search in framing (ours for NDJSON, eventsource-parser's for SSE) goes through String.prototype.indexOf; the
 * test wraps it to add up how many characters each call looked at, while a long line arrives in 64 KiB chunks
 * (the size undici hands over). A framing that searched its whole pending buffer again on every chunk would look
 * at about N²/(2 × 64 KiB) characters: for 17 MB, some 2.3 billion instead of about 17 million.
 */
import { describe, expect, it } from 'vitest';
import { frameEventBatches, MAX_LINE_CHARS } from '../../../src/main/leg/framing';
import type { WireEvent } from '../../../src/main/dialects/types';

const CHUNK = 64 * 1024;

function chunked(text: string): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, at + CHUNK));
  return out;
}

async function* iterate(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

/** Frames `chunks`, counting the characters every indexOf call examined meanwhile. */
async function framedCountingScans(chunks: Uint8Array[], framing: 'sse' | 'ndjson'): Promise<{ events: WireEvent[]; error: unknown; scanned: number }> {
  const original = String.prototype.indexOf;
  let scanned = 0;
  String.prototype.indexOf = function (this: string, search: string, position?: number): number {
    const from = Math.min(Math.max(Math.trunc(position ?? 0), 0), this.length);
    const found = original.call(this, search, position);
    scanned += (found === -1 ? this.length : found + search.length) - from;
    return found;
  };
  const events: WireEvent[] = [];
  let error: unknown;
  try {
    for await (const batch of frameEventBatches(iterate(chunks), framing)) events.push(...batch);
  } catch (e) {
    error = e;
  } finally {
    String.prototype.indexOf = original;
  }
  return { events, error, scanned };
}

const over = (framing: 'sse' | 'ndjson') => (framing === 'ndjson' ? '{"message":{"content":"' : 'data: {"choices":[{"delta":{"content":"') + 'y'.repeat(17 * 1024 * 1024);
const long = (framing: 'sse' | 'ndjson', n: number) => {
  const json = `{"message":{"content":"${'z'.repeat(n)}"}}`;
  return framing === 'ndjson' ? `${json}\n{"done":true}\n` : `data: ${json}\n\ndata: [DONE]\n\n`;
};

describe.each(['ndjson', 'sse'] as const)('%s framing does work linear in the line length', (framing) => {
  it('a 17 MB line with no newline, in 64 KiB chunks: stopped at the cap after looking at each character a few times at most', async () => {
    const text = over(framing);
    const { events, error, scanned } = await framedCountingScans(chunked(text), framing);
    expect(events).toEqual([]);
    expect(String(error)).toMatch(/longer than 16 MiB without a line break/);
    // Stopped at the cap: no more than the cap plus one chunk was taken in.
    expect(scanned).toBeLessThanOrEqual(8 * (MAX_LINE_CHARS + CHUNK));
  });

  it('a 10 MB line that does end, in 64 KiB chunks: delivered whole, each character looked at a few times at most', async () => {
    const n = 10 * 1024 * 1024;
    const text = long(framing, n);
    const { events, error, scanned } = await framedCountingScans(chunked(text), framing);
    expect(error).toBeUndefined();
    expect(events.map((e) => e.data.length)).toEqual([n + '{"message":{"content":""}}'.length, framing === 'ndjson' ? '{"done":true}'.length : '[DONE]'.length]);
    // A constant number of passes (newline search, eventsource-parser's own, the legacy `error:` field look):
    // 8 of them at most. A rescan per chunk would be some 80 passes here.
    expect(scanned).toBeLessThanOrEqual(8 * text.length);
  });
});
