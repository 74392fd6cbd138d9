/**
 * llama.cpp builds of 2025 report a failure after the stream began in a non-standard SSE field, `error: {...}`,
 * followed by `data: [DONE]` (fixture test/fixtures/openai/legacy-error-field, from llama.cpp's
 * `server_sent_event(sink, "error", error_data)`, replaced by `data: {"error": ...}` in ggml-org/llama.cpp#16109).
 * A standard SSE parser drops unknown fields, so the server's message would be lost and the turn would end `cut`.
 *
 * This rewrites such a line into the standard form the dialects already read, an `error` event:
 * `error: X` becomes `event: error` + `data: X`. It works on decoded text as it streams, so the field name may be
 * cut across chunks; only the start of each line is examined, and text is copied through otherwise unchanged.
 */
const FIELD = 'error:';
const REPLACEMENT = 'event: error\ndata:';

export class LegacyErrorField {
  /** The next character starts a line (the stream's first one does). */
  private atLineStart = true;
  /** The start of the last line, held back while it is still a prefix of `error:`. */
  private held = '';

  /**
   * The rewritten text that is certain so far. Linear and allocation-free for ordinary chunks: one native search
   * for the field name (inside JSON it is not at a line start, and stays) and a look at the last few characters.
   */
  push(text: string): string {
    const startsLine = this.atLineStart || this.held !== '';
    const buf = this.held === '' ? text : this.held + text;
    this.held = '';
    if (buf === '') return '';
    let out = '';
    let copied = 0;
    for (let at = buf.indexOf(FIELD); at !== -1; at = buf.indexOf(FIELD, at + 1)) {
      if (at === 0 ? !startsLine : !isBreak(buf.charCodeAt(at - 1))) continue;
      out += buf.slice(copied, at) + REPLACEMENT;
      copied = at + FIELD.length;
    }
    // The last line may be the start of the field, cut by the chunk: hold it for the next chunk to decide. Only a
    // tail shorter than the field can be such a start, so only the last few characters are looked at.
    let tailStart = buf.length;
    while (tailStart > 0 && buf.length - tailStart < FIELD.length && !isBreak(buf.charCodeAt(tailStart - 1))) tailStart--;
    const tailAtLineStart = tailStart > 0 ? isBreak(buf.charCodeAt(tailStart - 1)) : startsLine;
    let end = buf.length;
    if (tailAtLineStart && tailStart < end && end - tailStart < FIELD.length && tailStart >= copied && FIELD.startsWith(buf.slice(tailStart))) {
      this.held = buf.slice(tailStart);
      end = tailStart;
    }
    this.atLineStart = tailStart === buf.length && tailAtLineStart;
    return copied === 0 && end === buf.length ? buf : out + buf.slice(copied, end);
  }

  /** End of stream: a held line start was not the field after all. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}

function isBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d;
}
