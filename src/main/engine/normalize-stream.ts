import type { StreamPart } from '../../shared/parts';
import type { Dialect, ParserOptions, WireEvent } from '../dialects/types';
import { frameEventBatches, MAX_LINE_CHARS, FramingError } from '../leg/framing';
import type { ChunkCount } from './chunk-count';

/**
 * Bytes -> canonical parts: framing, then the dialect's parser, then `end()` (which always yields `finish`).
 * The ONE pipeline: the app's chat service and the replay command both run it, so a capture replays exactly as
 * it streamed.
 *
 * A body that is not SSE for an SSE dialect (a non-streaming `.json` response, pretty-printed or not, or
 * llama-server's HTTP 400 JSON even for `stream: true`, see conformance context-overflow-stream-deepseek) is
 * parsed whole as one event. NDJSON dialects need nothing special: a one-line JSON body is one NDJSON line.
 */
export async function* normalizeStream(
  body: AsyncIterable<Uint8Array>,
  dialect: Dialect,
  options?: ParserOptions,
): AsyncGenerator<StreamPart> {
  for await (const batch of normalizeBatches(body, dialect, options)) yield* batch;
}

/**
 * The same parts, one array per network chunk. The app's hot path uses this form: iterating plain arrays and
 * forwarding one event per batch costs far less than an async-generator step per part. `count` is told the parts of
 * each wire event (an SSE event, an NDJSON line), which is about one token (chunk-count.ts).
 */
export async function* normalizeBatches(
  body: AsyncIterable<Uint8Array>,
  dialect: Dialect,
  options?: ParserOptions,
  count?: ChunkCount,
): AsyncGenerator<StreamPart[]> {
  const parser = dialect.createParser(options);
  try {
    const batches = dialect.framing === 'sse' ? sseOrWhole(body) : frameEventBatches(body, 'ndjson');
    for await (const events of batches) {
      const parts: StreamPart[] = [];
      for (let e = 0; e < events.length; e++) {
        const out = parser.push(events[e]!);
        count?.add(out);
        for (let p = 0; p < out.length; p++) parts.push(out[p]!);
      }
      if (parts.length > 0) yield parts;
    }
  } catch (e) {
    // Anything but a framing failure (socket reset, a user's Stop) is rethrown: the caller owns the leg, knows
    // which it was, and writes the finish. First the parser's end settles what it holds (issue 16): bytes the
    // splitter held back (`3 <` stays `3 <`), open runs, and tool calls still being written (truncated, never
    // run). Only its `finish` is left out. A framing failure (the line cap) is the server's fault: an error, then
    // a finish whose stop says so whatever the parser saw (dialects need not know this error).
    if (!(e instanceof FramingError)) {
      const settled = parser.end().filter((part) => part.type !== 'finish');
      if (settled.length > 0) yield settled;
      throw e;
    }
    const parts: StreamPart[] = [{ type: 'error', message: e.message, code: 'framing' }];
    for (const part of parser.end()) parts.push(part.type === 'finish' ? { ...part, stop: 'error' } : part);
    yield parts;
    return;
  }
  yield parser.end();
}

/** Peeks the first non-blank byte: `{` or `[` means a plain JSON body, anything else is an event stream. */
async function* sseOrWhole(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent[]> {
  const iterator = body[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let kind: 'json' | 'sse' | undefined;
  while (kind === undefined) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    for (const byte of next.value) {
      if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0xef || byte === 0xbb || byte === 0xbf) continue;
      kind = byte === 0x7b || byte === 0x5b ? 'json' : 'sse';
      break;
    }
  }
  async function* rest(): AsyncGenerator<Uint8Array> {
    yield* head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (kind !== 'json') {
    yield* frameEventBatches(rest(), 'sse');
    return;
  }
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for await (const chunk of rest()) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length > MAX_LINE_CHARS) throw new FramingError(`The server sent a JSON body larger than ${MAX_LINE_CHARS / (1024 * 1024)} MiB; it was not read.`);
  }
  text += decoder.decode();
  yield [{ data: text.trim() }];
}
