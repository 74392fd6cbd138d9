import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Framing, WireEvent } from '../dialects/types';

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
export function frameEvents(body: AsyncIterable<Uint8Array>, framing: Framing): AsyncIterable<WireEvent> {
  return framing === 'sse' ? frameSse(body) : frameNdjson(body);
}

async function* frameNdjson(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  const lines = function* (text: string, final: boolean): Generator<WireEvent> {
    pending += text;
    let nl = pending.indexOf('\n');
    let from = 0;
    while (nl !== -1) {
      const line = pending.slice(from, nl).replace(/\r$/, '');
      if (line.trim() !== '') yield { data: line };
      from = nl + 1;
      nl = pending.indexOf('\n', from);
    }
    pending = pending.slice(from);
    if (final) {
      // A last line without its newline is still a line (a server that closes right after writing it).
      const line = pending.replace(/\r$/, '');
      pending = '';
      if (line.trim() !== '') yield { data: line };
    } else if (pending.length > MAX_LINE_CHARS) {
      throw overflow('ndjson');
    }
  };
  for await (const chunk of body) yield* lines(decoder.decode(chunk, { stream: true }), false);
  yield* lines(decoder.decode(), true);
}

async function* frameSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent> {
  const decoder = new TextDecoder('utf-8');
  const out: WireEvent[] = [];
  let failed: FramingError | undefined;
  const parser = createParser({
    maxBufferSize: MAX_LINE_CHARS,
    // Comments (`: ping`) are keep-alives: ignored. `[DONE]` is delivered like any event; the dialect decides
    // what it means (OpenAI: end of transport, not a finish reason).
    onEvent: (e: EventSourceMessage) => {
      out.push(e.event ? { event: e.event, data: e.data } : { data: e.data });
    },
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') failed = overflow('sse');
    },
  });
  const feed = function* (text: string): Generator<WireEvent> {
    if (text) parser.feed(text);
    if (failed) throw failed;
    yield* out.splice(0);
  };
  for await (const chunk of body) yield* feed(decoder.decode(chunk, { stream: true }));
  // Deliver a final event the server did not terminate with a blank line: its data line(s) did arrive.
  yield* feed(decoder.decode() + '\n\n');
}
