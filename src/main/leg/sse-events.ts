import type { WireEvent } from '../dialects/types';
import { MAX_LINE_CHARS, overflow } from './line-limit';

const LF = 0x0a;
const SPACE = 0x20;
const COLON = 0x3a;

/**
 * Decoded SSE text -> events (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation),
 * cut anywhere: lines end in LF, CRLF or CR (a CR at a chunk's end waits to see whether an LF follows), `data`
 * lines join with LF, `event` names the event, a blank line dispatches an event that has data. `id`, `retry`,
 * comments and unknown fields carry nothing a chat needs and are dropped.
 *
 * It does what eventsource-parser behind LegacyErrorField did (test/main/leg/sse-events.test.ts compares them on
 * generated streams cut at random), in one pass over each chunk: those two scanned every chunk twice more and
 * cost about half the framing time (bench/normalize.bench.ts). Kept from them:
 * - llama.cpp's non-standard `error:` field (2025 builds, fixture test/fixtures/openai/legacy-error-field, from
 *   `server_sent_event(sink, "error", error_data)`), which a standard parser drops, so the server's message was lost
 *   and the turn ended `cut`: a line starting `error:` sets the event type to `error` and is a data line.
 * - One leading U+FEFF is skipped (the decoder already took the byte-order mark; this is a second one). Unlike
 *   eventsource-parser, the characters `ï»¿` (a mark decoded as Latin-1 by someone else) are text: ours is UTF-8.
 * - Linear in the bytes: an unterminated line is held as pieces joined once its end arrives, and a line that can
 *   only be ignored (a comment, an unknown field) is skipped, not held. A held line plus the event's data may not
 *   pass MAX_LINE_CHARS (a server that never ends a line must not eat RAM).
 */
export class SseEvents {
  private out: WireEvent[] = [];
  private data = '';
  private dataLines = 0;
  private eventType: string | undefined;
  private lastType = '';
  /** An unterminated line worth keeping, in pieces. */
  private pieces: string[] = [];
  private piecesLength = 0;
  /** Inside an unterminated line that can only be ignored. */
  private skipping = false;
  /** The last text ended in CR: an LF starting the next one belongs to it. */
  private afterCr = false;
  /** No text seen yet (the U+FEFF check waits for the first character). */
  private atStart = true;
  /** The first line followed a skipped U+FEFF: it was never at a line start, so it is no `error:` field. */
  private bomLine = false;

  /** The events completed by `text`. Throws FramingError when a line (with its event's data) passes the cap. */
  push(text: string): WireEvent[] {
    const len = text.length;
    let pos = 0;
    if (len === 0) return this.take();
    if (this.atStart) {
      this.atStart = false;
      if (text.charCodeAt(0) === 0xfeff) {
        pos = 1;
        this.bomLine = true;
      }
    }
    if (this.afterCr) {
      this.afterCr = false;
      if (text.charCodeAt(pos) === LF) pos++;
    }
    let lf = text.indexOf('\n', pos);
    let cr = text.indexOf('\r', pos);
    if (this.skipping || this.pieces.length > 0) {
      const end = lf === -1 ? cr : cr === -1 || lf < cr ? lf : cr;
      if (end === -1) {
        if (!this.skipping) this.hold(text, pos);
        return this.take();
      }
      if (!this.skipping) {
        this.pieces.push(text.slice(pos, end));
        const line = this.pieces.join('');
        this.pieces = [];
        this.piecesLength = 0;
        this.line(line, 0, line.length);
      }
      this.skipping = false;
      this.bomLine = false;
      pos = this.after(text, end);
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
    }
    while (pos < len) {
      let end: number;
      if (cr === -1) {
        // The common case: no CR left in this text, lines end in LF.
        if (lf === -1) break;
        end = lf;
        this.line(text, pos, end);
        pos = end + 1;
        lf = text.indexOf('\n', pos);
        continue;
      }
      end = lf !== -1 && lf < cr ? lf : cr;
      this.line(text, pos, end);
      pos = this.after(text, end);
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr < pos) cr = text.indexOf('\r', pos);
    }
    if (pos < len) {
      if (this.worthHolding(text, pos, len)) this.hold(text, pos);
      else this.skipping = true;
    }
    return this.take();
  }

  /** The stream ended: a last line without its end is still a line, and an event without its blank line is sent. */
  end(): WireEvent[] {
    if (this.pieces.length > 0) {
      const line = this.pieces.join('');
      this.pieces = [];
      this.piecesLength = 0;
      this.line(line, 0, line.length);
    }
    this.skipping = false;
    this.dispatch();
    return this.take();
  }

  private take(): WireEvent[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  /** The index after the line terminator at `end` (CR, LF or CRLF); a CR ending the text may be half a CRLF. */
  private after(text: string, end: number): number {
    if (text.charCodeAt(end) === LF) return end + 1;
    if (end + 1 === text.length) {
      this.afterCr = true;
      return end + 1;
    }
    return text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
  }

  /** Keeps the unterminated rest of `text` from `pos` (no line end in it). */
  private hold(text: string, pos: number): void {
    const held = this.piecesLength;
    this.pieces.push(pos === 0 ? text : text.slice(pos));
    this.piecesLength += text.length - pos;
    // While the line is short its field name may still turn out to be one to ignore.
    if (held < 6) {
      const head = this.pieces.join('').slice(0, 7);
      if (!this.worthHolding(head, 0, head.length)) {
        this.pieces = [];
        this.piecesLength = 0;
        this.skipping = true;
        return;
      }
    }
    this.checkSize(this.piecesLength);
  }

  /**
   * Whether an unterminated line starting at `pos` may still be a `data`, `event`, `id`, `retry` or `error` field
   * (what it has so far is the start of `name:` or begins with it); any other line is ignored when complete.
   */
  private worthHolding(text: string, pos: number, len: number): boolean {
    const n = len - pos;
    const c = text.charCodeAt(pos);
    const field = (name: string) => {
      const k = Math.min(n, name.length);
      for (let i = 1; i < k; i++) if (text.charCodeAt(pos + i) !== name.charCodeAt(i)) return false;
      return n <= name.length || text.charCodeAt(pos + name.length) === COLON;
    };
    if (c === 0x64) return field('data');
    if (c === 0x65) return field('event') || (!this.bomLine && field('error'));
    if (c === 0x69) return field('id');
    if (c === 0x72) return field('retry');
    return false;
  }

  /**
   * One complete line, `text[start, end)`. The field name is what precedes the first colon (the whole line when
   * there is none), so only lines that are `name` or start `name:` matter; nothing is searched for.
   */
  private line(text: string, start: number, end: number): void {
    const legacyOk = !this.bomLine;
    this.bomLine = false;
    if (start === end) return this.dispatch();
    const c = text.charCodeAt(start);
    if (c === 0x64 && isField(text, start, end, 'data')) {
      this.addData(text.slice(valueStart(text, start + 5, end), end));
    } else if (c === 0x65) {
      if (isField(text, start, end, 'event')) {
        const from = valueStart(text, start + 6, end);
        // Every event of a stream tends to carry the same few names: the last one is reused, not copied again.
        const last = this.lastType;
        if (from >= end) this.eventType = undefined;
        else if (last.length === end - from && text.startsWith(last, from)) this.eventType = last;
        else this.eventType = this.lastType = text.slice(from, end);
      } else if (legacyOk && end > start + 5 && isField(text, start, end, 'error')) {
        this.eventType = 'error';
        this.addData(text.slice(valueStart(text, start + 6, end), end));
      }
    }
  }

  private addData(value: string): void {
    this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
    this.dataLines++;
    this.checkSize(0);
  }

  private checkSize(held: number): void {
    if (held + this.data.length > MAX_LINE_CHARS) throw overflow('sse');
  }

  private dispatch(): void {
    if (this.dataLines > 0) this.out.push({ event: this.eventType, data: this.data });
    this.data = '';
    this.dataLines = 0;
    this.eventType = undefined;
  }
}

/** Whether `text[start, end)` is the field `name`: exactly `name`, or `name:` and a value. */
function isField(text: string, start: number, end: number, name: string): boolean {
  const after = start + name.length;
  return after <= end && text.startsWith(name, start) && (after === end || text.charCodeAt(after) === COLON);
}

/** Where a field's value starts: after the colon, and after one space that follows it. */
function valueStart(text: string, afterColon: number, end: number): number {
  return afterColon < end && text.charCodeAt(afterColon) === SPACE ? afterColon + 1 : afterColon;
}
