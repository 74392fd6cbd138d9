import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Framing, WireEvent } from '../dialects/types';
import { LegacyErrorField } from './legacy-error-field';

/** No single NDJSON line or SSE field may grow past this: a server that never sends a newline must not eat RAM. */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

export class FramingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FramingError';
  }
}

function overflow(framing: Framing): FramingError {
  return new FramingError(
    `The server sent a ${framing === 'sse' ? 'SSE event' : 'line'} longer than ${MAX_LINE_CHARS / (1024 * 1024)} MiB without a line break; the stream was stopped.`,
  );
}

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

/**
 * SSE through eventsource-parser, which is linear too: it holds an unterminated line as fragments and joins them
 * once its terminator arrives (its parse.ts; test/main/leg/framing-linear.test.ts counts the work for both).
 */
async function* frameSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent[]> {
  const decoder = new TextDecoder('utf-8');
  let out: WireEvent[] = [];
  let failed: FramingError | undefined;
  const parser = createParser({
    maxBufferSize: MAX_LINE_CHARS,
    // Comments (`: ping`) are keep-alives: ignored. `[DONE]` is delivered like any event; the dialect decides
    // what it means (OpenAI: end of transport, not a finish reason).
    // The parser's own message is the event (its `id` rides along unread): no second object per event.
    onEvent: (e: EventSourceMessage) => {
      out.push(e);
    },
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') failed = overflow('sse');
    },
  });
  const feed = (text: string): WireEvent[] => {
    if (text) parser.feed(text);
    if (failed) throw failed;
    const batch = out;
    out = [];
    return batch;
  };
  // llama.cpp's non-standard `error:` field becomes a standard `error` event before the parser can drop it.
  const legacy = new LegacyErrorField();
  for await (const chunk of body) {
    const batch = feed(legacy.push(decoder.decode(chunk, { stream: true })));
    if (batch.length > 0) yield batch;
  }
  // Deliver a final event the server did not terminate with a blank line: its data line(s) did arrive.
  const last = feed(legacy.push(decoder.decode()) + legacy.flush() + '\n\n');
  if (last.length > 0) yield last;
}
