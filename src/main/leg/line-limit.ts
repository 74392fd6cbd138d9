import type { Framing } from '../dialects/types';

/** No single NDJSON line or SSE field may grow past this: a server that never sends a newline must not eat RAM. */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

export class FramingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FramingError';
  }
}

export function overflow(framing: Framing): FramingError {
  return new FramingError(
    `The server sent a ${framing === 'sse' ? 'SSE event' : 'line'} longer than ${MAX_LINE_CHARS / (1024 * 1024)} MiB without a line break; the stream was stopped.`,
  );
}
