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
  /** The next character starts a line. */
  private atLineStart = true;
  /** The start of the current line, held back while it is still a prefix of `error:`. */
  private held = '';

  /** The rewritten text that is certain so far. */
  push(text: string): string {
    let out = '';
    let copied = 0;
    let pos = 0;
    const crlf = text.indexOf('\r') !== -1;
    while (pos <= text.length) {
      if (this.atLineStart) {
        const need = FIELD.length - this.held.length;
        const seen = text.slice(pos, pos + need);
        if (seen.length < need && FIELD.startsWith(this.held + seen)) {
          // The chunk ends inside what may still become `error:`: hold it until the next chunk decides.
          out += text.slice(copied, pos);
          this.held += seen;
          return out;
        }
        out += text.slice(copied, pos);
        if (this.held + seen === FIELD) {
          out += REPLACEMENT;
          pos += need;
        } else {
          out += this.held;
        }
        copied = pos;
        this.held = '';
        this.atLineStart = false;
      }
      const lf = text.indexOf('\n', pos);
      const cr = crlf ? text.indexOf('\r', pos) : -1;
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      pos = end + 1;
      this.atLineStart = true;
      if (pos === text.length) break;
    }
    return out + text.slice(copied);
  }

  /** End of stream: a held line start was not the field after all. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}
