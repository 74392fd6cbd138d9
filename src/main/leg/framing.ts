import type { Framing, WireEvent } from '../dialects/types';
import { FramingError, MAX_LINE_CHARS, overflow } from './line-limit';
import { SseEvents } from './sse-events';

export { FramingError, MAX_LINE_CHARS };

/**
 * Bytes -> wire events, independent of how the bytes were cut: a chunk may end mid-line or mid-UTF-8 character
 * (the streaming TextDecoder holds partial characters back). Knows no dialect.
 */
export async function* frameEvents(body: AsyncIterable<Uint8Array>, framing: Framing): AsyncGenerator<WireEvent> {
  for await (const batch of frameEventBatches(body, framing)) yield* batch;
}

/**
 * The same events, delivered as one array per network chunk: the hot path iterates plain arrays instead of
 * paying an async-generator step per event (a large share of the time at thousands of events a second).
 */
export function frameEventBatches(body: AsyncIterable<Uint8Array>, framing: Framing): AsyncIterable<WireEvent[]> {
  return framing === 'sse' ? frameSse(body) : frameNdjson(body);
}

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/**
 * NDJSON lines from decoded text. Linear in the bytes received: each chunk is searched for newlines once, and an
 * unterminated line is kept as a list of pieces joined only when its newline arrives. (Appending to one pending
 * string and searching it from offset 0 on every chunk was quadratic: a 17 MB line in 64 KiB chunks meant
 * gigabytes scanned; issue 12.)
 */
export class NdjsonLines {
  private pieces: string[] = [];
  private piecesLength = 0;

  /** The complete lines in `text` (with what was held before it), as events; holds back an unterminated tail. */
  push(text: string): WireEvent[] {
    const out: WireEvent[] = [];
    let from = 0;
    let nl = text.indexOf('\n');
    while (nl !== -1) {
      let line = text.slice(from, nl);
      if (this.pieces.length > 0) {
        this.pieces.push(line);
        line = this.pieces.join('');
        this.pieces = [];
        this.piecesLength = 0;
      }
      // CRLF: the CR may have arrived at the end of the previous chunk, so it is stripped from the whole line.
      if (line.charCodeAt(line.length - 1) === 0x0d) line = line.slice(0, -1);
      if (!isBlank(line)) out.push({ data: line });
      from = nl + 1;
      nl = text.indexOf('\n', from);
    }
    if (from < text.length) {
      this.pieces.push(from === 0 ? text : text.slice(from));
      this.piecesLength += text.length - from;
      if (this.piecesLength > MAX_LINE_CHARS) throw overflow('ndjson');
    }
    return out;
  }

  /** The stream ended: a last line without its newline is still a line (a server that closes right after it). */
  end(): WireEvent[] {
    let line = this.pieces.join('');
    this.pieces = [];
    this.piecesLength = 0;
    if (line.charCodeAt(line.length - 1) === 0x0d) line = line.slice(0, -1);
    return isBlank(line) ? [] : [{ data: line }];
  }
}

async function* frameNdjson(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent[]> {
  const decoder = new TextDecoder('utf-8');
  const lines = new NdjsonLines();
  for await (const chunk of body) {
    const batch = lines.push(decoder.decode(chunk, { stream: true }));
    if (batch.length > 0) yield batch;
  }
  const tail = decoder.decode();
  const last = tail ? lines.push(tail) : [];
  for (const event of lines.end()) last.push(event);
  if (last.length > 0) yield last;
}

/** SSE through SseEvents, linear too: an unterminated line is held as pieces and joined once its end arrives. */
async function* frameSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent[]> {
  const decoder = new TextDecoder('utf-8');
  const events = new SseEvents();
  for await (const chunk of body) {
    const batch = events.push(decoder.decode(chunk, { stream: true }));
    if (batch.length > 0) yield batch;
  }
  // A final event the server did not end with a blank line is still delivered: its data line(s) did arrive.
  const last = events.push(decoder.decode());
  for (const event of events.end()) last.push(event);
  if (last.length > 0) yield last;
}
