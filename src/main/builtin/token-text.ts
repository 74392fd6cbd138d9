import type { LlamaModel, Token } from 'node-llama-cpp';

/** Tokens of context given to each detokenize call, so a piece's leading space renders as it would in place. */
const CONTEXT_TOKENS = 4;

/**
 * Generated tokens -> text, piece by piece. A multi-byte character split over tokens detokenizes to U+FFFD until
 * its last byte arrives, so a piece ending in U+FFFD is held back and retried with the next token. Special tokens
 * render as llama-server renders them (`special` off: control tokens are empty, user-defined ones like
 * `<think>` are text).
 */
export class TokenText {
  private readonly done: Token[] = [];
  private pending: Token[] = [];

  constructor(private readonly model: Pick<LlamaModel, 'detokenize'>) {}

  push(token: Token): string {
    this.pending.push(token);
    const text = this.model.detokenize(this.pending, false, this.done.slice(-CONTEXT_TOKENS));
    // Four pending tokens cover any UTF-8 character: past that the U+FFFD is really in the output.
    if (text.endsWith('\uFFFD') && this.pending.length < 4) return '';
    this.done.push(...this.pending);
    if (this.done.length > 64) this.done.splice(0, this.done.length - CONTEXT_TOKENS);
    this.pending = [];
    return text;
  }

  /** End of generation: whatever is held is released as it is. */
  flush(): string {
    if (this.pending.length === 0) return '';
    const text = this.model.detokenize(this.pending, false, this.done.slice(-CONTEXT_TOKENS));
    this.pending = [];
    return text;
  }
}
