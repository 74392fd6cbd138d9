import type { LlamaModel, Token } from 'node-llama-cpp';

/** Tokens of context given to each detokenize call, so a piece's leading space renders as it would in place. */
const CONTEXT_TOKENS = 4;
/** A UTF-8 character is at most 4 bytes, so at most the last 3 tokens can hold an unfinished one. */
const MAX_UNFINISHED = 3;

/**
 * Generated tokens -> text, in batches: `push` only keeps a token, and `take` turns every token kept since the
 * last take into text with one detokenize call (the text goes out once a display frame, ./event-coalescer.ts).
 * Turning each token into text as it came cost two native detokenize calls per token (the context's text, then
 * the context's and the token's: LlamaModel.detokenize with `lastTokens`), about 3 % of the built-in engine's
 * tokens/s on the 2-core machine (scratch A/B of the loop in one process).
 *
 * A multi-byte character split over tokens detokenizes to U+FFFD until its last byte arrives, so the tokens of an
 * unfinished character at the end of a batch wait for the next take. Special tokens render as llama-server
 * renders them (`special` off: control tokens are empty, user-defined ones like `<think>` are text).
 */
export class TokenText {
  private readonly done: Token[] = [];
  private pending: Token[] = [];

  constructor(private readonly model: Pick<LlamaModel, 'detokenize'>) {}

  push(token: Token): void {
    this.pending.push(token);
  }

  /** The text of the tokens pushed since the last take, less an unfinished character at its end. */
  take(): string {
    const n = this.pending.length;
    if (n === 0) return '';
    const context = this.done.slice(-CONTEXT_TOKENS);
    const text = this.model.detokenize(this.pending, false, context);
    if (!text.endsWith('\uFFFD')) return this.release(n, text);
    for (let keep = 1; keep <= Math.min(MAX_UNFINISHED, n); keep++) {
      const head = keep === n ? '' : this.model.detokenize(this.pending.slice(0, n - keep), false, context);
      if (!head.endsWith('\uFFFD')) return this.release(n - keep, head);
    }
    // Past the longest character the U+FFFD is really in the output.
    return this.release(n, text);
  }

  /** End of generation: whatever is held is released as it is. */
  flush(): string {
    if (this.pending.length === 0) return '';
    const text = this.model.detokenize(this.pending, false, this.done.slice(-CONTEXT_TOKENS));
    return this.release(this.pending.length, text);
  }

  /** The first `count` pending tokens became `text`: they are context for what follows. */
  private release(count: number, text: string): string {
    if (count === 0) return '';
    this.done.push(...this.pending.slice(0, count));
    this.pending = this.pending.slice(count);
    if (this.done.length > 64) this.done.splice(0, this.done.length - CONTEXT_TOKENS);
    return text;
  }
}
