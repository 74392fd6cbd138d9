import type { StreamPart } from '../parts';
import { TagScanner, type SplitEvent } from './think-tag-splitter';

/**
 * Turns a response's content deltas into text/reasoning run parts through the think-tag splitter
 * (DESIGN.md §4). Dialect parsers feed every content delta to `push` and call `closeRun` on each interleaving
 * signal (a native reasoning delta, a tool-call delta) and at end of stream.
 *
 * Decisions:
 * - Each run between interleaving signals is split on its own, like the drain's one-shot split of each run
 *   (seed 002): a block left open when a signal arrives ends there, its held bytes are released, and the next
 *   run starts outside any block. State does NOT carry across `closeRun`, so a `<think>` that never closed
 *   cannot swallow the answer after a tool call.
 * - `startInside` applies to the first run only, and a run exists only once a non-empty delta arrived:
 *   `closeRun` before any content is a no-op and does not use up `startInside`. Server-parsed reasoning before
 *   that first run cancels it (`serverSeparatedReasoning`).
 * - Every consumed block becomes one reasoning run (origin 'inline'), started at its open tag even if it stays
 *   empty, so the reducer sees that a tag was consumed. Text runs start lazily at their first byte, so tag
 *   residue never makes an empty text run.
 * - Part ids come from `nextId`, one per run, in stream order; the same content gives the same ids for any
 *   chunking.
 */
export class ContentRuns {
  private readonly nextId: () => string;
  private startInside: boolean;
  private scanner: TagScanner | null = null;
  private open: { kind: 'text' | 'reasoning'; id: string } | null = null;
  private consumed = false;

  constructor(options: { nextId: () => string; startInside?: boolean }) {
    this.nextId = options.nextId;
    this.startInside = options.startInside ?? false;
  }

  /** A content delta from the wire. */
  push(delta: string): StreamPart[] {
    if (delta === '') return [];
    if (this.scanner === null) {
      this.scanner = new TagScanner({ startInside: this.startInside });
      this.startInside = false;
    }
    // The common token continues the open run unchanged: one part, no scanner events (the hot path).
    const open = this.open;
    if (open !== null && this.scanner.plainKind(delta) === open.kind) {
      return [open.kind === 'text' ? { type: 'text-delta', id: open.id, delta } : { type: 'reasoning-delta', id: open.id, delta }];
    }
    const parts = this.apply(this.scanner.push(delta));
    this.consumed ||= this.scanner.consumedTag;
    return parts;
  }

  /** An interleaving signal or end of stream: flushes held bytes and ends the current run. */
  closeRun(): StreamPart[] {
    if (this.scanner === null) return [];
    const parts = this.apply(this.scanner.flush());
    this.consumed ||= this.scanner.consumedTag;
    this.scanner = null;
    this.end(parts);
    return parts;
  }

  /**
   * The server parsed reasoning into its own field (llama-server `reasoning_content`, Ollama `thinking`, an
   * Anthropic thinking block). When that happens before any content, the server has already dealt with the block
   * the template opened, so the content that follows is the answer: think-open applies only to text the server did
   * not separate (issue 16). After content has started, nothing already split is rewritten.
   */
  serverSeparatedReasoning(): void {
    if (this.scanner === null) this.startInside = false;
  }

  /**
   * Whether the bytes pushed so far leave the stream inside a think block (startInside counts until the first
   * byte). Dialects that read markup of their own from content (the built-in engine's `<tool_call>`) ask this so
   * that markup written inside reasoning stays reasoning.
   */
  get insideReasoning(): boolean {
    return this.open?.kind === 'reasoning' || (this.scanner === null && this.startInside);
  }

  /** Whether any think tag was consumed in any run so far (startInside's implicit open counts). */
  get consumedTag(): boolean {
    return this.consumed || (this.scanner?.consumedTag ?? false);
  }

  private apply(events: readonly SplitEvent[]): StreamPart[] {
    const parts: StreamPart[] = [];
    for (const event of events) {
      switch (event.kind) {
        case 'open':
          this.end(parts);
          this.begin(parts, 'reasoning');
          break;
        case 'close':
          this.end(parts);
          break;
        case 'text':
        case 'reasoning': {
          const id = this.open?.kind === event.kind ? this.open.id : this.begin(parts, event.kind);
          parts.push({ type: event.kind === 'text' ? 'text-delta' : 'reasoning-delta', id, delta: event.text });
          break;
        }
      }
    }
    return parts;
  }

  private begin(parts: StreamPart[], kind: 'text' | 'reasoning'): string {
    this.end(parts);
    const id = this.nextId();
    this.open = { kind, id };
    parts.push(kind === 'text' ? { type: 'text-start', id } : { type: 'reasoning-start', id, origin: 'inline' });
    return id;
  }

  private end(parts: StreamPart[]): void {
    if (this.open === null) return;
    const { kind, id } = this.open;
    parts.push({ type: kind === 'text' ? 'text-end' : 'reasoning-end', id });
    this.open = null;
  }
}
