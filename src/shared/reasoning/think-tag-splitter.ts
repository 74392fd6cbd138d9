/**
 * The one reasoning-split rule (DESIGN.md §4, seed 002): reasoning that passthrough servers leave inline in
 * content as `<think>…</think>` or `<reasoning>…</reasoning>` is split from the answer text here, and only here.
 *
 * Decisions, pinned by test/shared/think-tag-splitter.test.ts:
 * - Tags match exactly and lowercase (`<think>`, `<reasoning>`); models emit them verbatim and a looser match
 *   would start eating prose such as `<Think>` or `<think about="x">`.
 * - A block is closed by ITS OWN close tag only: `</think>` closes `<think>`, `</reasoning>` closes
 *   `<reasoning>`. Inside a block every other tag (a nested open, the other kind's close) is reasoning text.
 *   There is no nesting: the first matching close ends the block.
 * - An orphan close tag (outside any block) is ordinary text, byte-identical: it cannot be told apart from prose
 *   quoting the tag, and reclassifying it would let quoted text destroy the answer around it.
 * - `startInside` (the rendered prompt ended inside an open think block) starts inside a `<think>` block; that
 *   implicit open counts as a consumed tag, so the turn is treated as tag-split from the first byte.
 * - An empty block (`<think></think>`) yields no piece but still counts as a consumed tag; the scanner reports
 *   it as an `open`/`close` event pair so ContentRuns can emit an (empty) reasoning run for it.
 * - A block still open at the end of input stays reasoning (a truncated thought is not an answer).
 * - Streaming holds back only a possible tag prefix at the chunk end (from the last `<`), never more, so every
 *   byte that cannot start a tag is released at once.
 */

export type SplitPiece = { kind: 'reasoning' | 'text'; text: string };

/** Lower-level output of the scanner: pieces plus the block boundaries the pieces alone cannot show. */
export type SplitEvent = SplitPiece | { kind: 'open' } | { kind: 'close' };

type Block = 'think' | 'reasoning';
const OPEN_TAGS: readonly (readonly [string, Block])[] = [
  ['<think>', 'think'],
  ['<reasoning>', 'reasoning'],
];
const CLOSE_TAG: Readonly<Record<Block, string>> = { think: '</think>', reasoning: '</reasoning>' };

/** The streaming state machine, reporting block boundaries as events. ContentRuns is built on it. */
export class TagScanner {
  private inside: Block | null;
  private held = '';
  private consumed: boolean;
  /** startInside's implicit open is reported once, before the first byte. */
  private pendingOpen: boolean;

  constructor(options?: { startInside?: boolean }) {
    const startInside = options?.startInside ?? false;
    this.inside = startInside ? 'think' : null;
    this.consumed = startInside;
    this.pendingOpen = startInside;
  }

  get consumedTag(): boolean {
    return this.consumed;
  }

  /**
   * The kind `chunk` would come out as when it passes through whole and changes nothing (nothing held, nothing
   * pending, no `<` that could start a tag): the common token. Null when `push` has work to do.
   */
  plainKind(chunk: string): 'text' | 'reasoning' | null {
    if (this.held !== '' || this.pendingOpen || chunk === '' || chunk.indexOf('<') !== -1) return null;
    return this.inside === null ? 'text' : 'reasoning';
  }

  push(chunk: string): SplitEvent[] {
    const plain = this.plainKind(chunk);
    if (plain !== null) return [{ kind: plain, text: chunk }];
    if (chunk === '' && this.held === '' && !this.pendingOpen) return [];
    const out = this.takePendingOpen();
    const buf = this.held + chunk;
    let pos = 0;
    for (;;) {
      const hit = this.findTag(buf, pos);
      if (hit === null) break;
      this.emit(out, buf.slice(pos, hit.index));
      pos = hit.index + hit.tag.length;
      this.consumed = true;
      this.inside = hit.opens;
      out.push({ kind: hit.opens === null ? 'close' : 'open' });
    }
    const hold = this.heldPrefixLength(buf, pos);
    this.emit(out, buf.slice(pos, buf.length - hold));
    this.held = buf.slice(buf.length - hold);
    return out;
  }

  /** End of input: held bytes were not a tag after all. An open block stays open (its text is reasoning). */
  flush(): SplitEvent[] {
    const out = this.takePendingOpen();
    this.emit(out, this.held);
    this.held = '';
    return out;
  }

  private takePendingOpen(): SplitEvent[] {
    if (!this.pendingOpen) return [];
    this.pendingOpen = false;
    return [{ kind: 'open' }];
  }

  private emit(out: SplitEvent[], text: string): void {
    if (text !== '') out.push({ kind: this.inside === null ? 'text' : 'reasoning', text });
  }

  /** The tags that mean something in the current state: opens outside a block, its own close inside one. */
  private targets(): readonly (readonly [string, Block | null])[] {
    return this.inside === null ? OPEN_TAGS : [[CLOSE_TAG[this.inside], null]];
  }

  /** The earliest meaningful tag at or after `from`; `opens` is the block it opens, null for a close. */
  private findTag(buf: string, from: number): { index: number; tag: string; opens: Block | null } | null {
    let best: { index: number; tag: string; opens: Block | null } | null = null;
    for (const [tag, opens] of this.targets()) {
      const index = buf.indexOf(tag, from);
      if (index >= 0 && (best === null || index < best.index)) best = { index, tag, opens };
    }
    return best;
  }

  /**
   * How many trailing bytes could still become a tag. Every tag has exactly one `<`, at its start, so only the
   * suffix from the last `<` can be a tag prefix.
   */
  private heldPrefixLength(buf: string, from: number): number {
    const lt = buf.lastIndexOf('<');
    if (lt < from) return 0;
    const tail = buf.slice(lt);
    for (const [tag] of this.targets()) if (tail.length < tag.length && tag.startsWith(tail)) return tail.length;
    return 0;
  }
}

/** Streaming form: feed content chunks as they arrive, `flush()` once at the end. */
export class ThinkTagSplitter {
  private readonly scanner: TagScanner;

  constructor(options?: { startInside?: boolean }) {
    this.scanner = new TagScanner(options);
  }

  /** The output that is certain so far (never empty pieces). */
  push(chunk: string): SplitPiece[] {
    return piecesOf(this.scanner.push(chunk));
  }

  /** End of input: releases any held-back partial tag as ordinary bytes of the current kind. */
  flush(): SplitPiece[] {
    return piecesOf(this.scanner.flush());
  }

  /** Whether any tag (or startInside's implicit open) has been consumed so far. */
  get consumedTag(): boolean {
    return this.scanner.consumedTag;
  }
}

/**
 * One-shot form, exactly the streaming form run over a single chunk. Pieces come normalized: adjacent pieces of
 * one kind merged, no empty pieces.
 */
export function splitInlineReasoning(
  text: string,
  options?: { startInside?: boolean },
): { pieces: SplitPiece[]; consumedTag: boolean } {
  const splitter = new ThinkTagSplitter(options);
  const pieces = normalizePieces([...splitter.push(text), ...splitter.flush()]);
  return { pieces, consumedTag: splitter.consumedTag };
}

/** Merges adjacent pieces of the same kind and drops empty ones: the form in which chunkings compare equal. */
export function normalizePieces(pieces: readonly SplitPiece[]): SplitPiece[] {
  const out: SplitPiece[] = [];
  for (const piece of pieces) {
    if (piece.text === '') continue;
    const last = out[out.length - 1];
    if (last !== undefined && last.kind === piece.kind) out[out.length - 1] = { kind: last.kind, text: last.text + piece.text };
    else out.push({ kind: piece.kind, text: piece.text });
  }
  return out;
}

function piecesOf(events: readonly SplitEvent[]): SplitPiece[] {
  const out: SplitPiece[] = [];
  for (const event of events) if (event.kind === 'text' || event.kind === 'reasoning') out.push(event);
  return out;
}
