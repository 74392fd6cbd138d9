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

async function* frameNdjson(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent[]> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  const lines = (text: string, final: boolean): WireEvent[] => {
    const out: WireEvent[] = [];
    pending += text;
    let nl = pending.indexOf('\n');
    let from = 0;
    while (nl !== -1) {
      const end = nl > from && pending.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
      const line = pending.slice(from, end);
      if (!isBlank(line)) out.push({ data: line });
      from = nl + 1;
      nl = pending.indexOf('\n', from);
    }
    pending = from === 0 ? pending : pending.slice(from);
    if (final) {
      // A last line without its newline is still a line (a server that closes right after writing it).
      const line = pending.endsWith('\r') ? pending.slice(0, -1) : pending;
      pending = '';
      if (!isBlank(line)) out.push({ data: line });
    } else if (pending.length > MAX_LINE_CHARS) {
      throw overflow('ndjson');
    }
    return out;
  };
  for await (const chunk of body) {
    const batch = lines(decoder.decode(chunk, { stream: true }), false);
    if (batch.length > 0) yield batch;
  }
  const last = lines(decoder.decode(), true);
  if (last.length > 0) yield last;
}

async function* frameSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent[]> {
  const decoder = new TextDecoder('utf-8');
  let out: WireEvent[] = [];
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
