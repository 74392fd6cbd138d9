import { CHARS_PER_TOKEN } from '../../shared/context-estimate';
import type { StreamPart } from '../../shared/parts';

/**
 * The tokens an answer streamed so far, counted from the wire while it streams (the servers send their own count
 * with the finish only). A streamed chunk is about one token where the server sends one per token: llama-server's
 * and OpenAI-compatible servers' SSE `data:` events, Ollama's NDJSON lines, the built-in engine's events (the
 * recorded streams in test/fixtures and the llama-server conformance captures: one chunk per token, the server's
 * count within a few of it). So each chunk that carried text or reasoning counts one, read from the parts its parse
 * gave: a role-only, empty, usage-only or finish-only chunk gave none and counts nothing.
 *
 * Where one chunk carries several tokens, its characters are counted instead, at the context meter's rule: the
 * chunk that starts a tool call (its name and the arguments that came with it: Ollama sends a whole call in one line,
 * the built-in engine's calls are parsed whole, and llama-server holds a call's first tokens until it has the name,
 * then sends them as one fragment), and every delta of a dialect whose chunks hold several tokens (Anthropic's
 * content_block_delta). A later chunk of a call's arguments is one token like a text chunk: llama-server streams
 * them one a token after the start (conformance c-toolcall-stream-deepseek.sse), and JSON's tokens are short (`"`,
 * `":`, ` "`): their characters ÷ 4 and no name gave 4 where the server counted 10 (now 6). Bytes a parser holds back (a split
 * `<think>` tag) come with the next chunk and are counted with it: the count is "about", and the footer keeps its
 * "~" until the server's own count replaces it.
 *
 * On the per-token path: a look at the few parts of each chunk, no allocation.
 */
export class ChunkCount {
  private chunks = 0;
  private chars = 0;

  /**
   * `several`: this dialect's chunks carry several tokens each (counted by characters). `before`: the tokens of the
   * answer's earlier steps, so the count is the whole answer's.
   */
  constructor(
    private readonly several: boolean,
    private readonly before = 0,
  ) {}

  /** The parts one wire chunk parsed to. */
  add(parts: readonly StreamPart[]): void {
    let one = false;
    let starts = false;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.type === 'tool-call-start') {
        starts = true;
        this.chars += p.name.length;
      }
    }
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.type === 'tool-call-delta') {
        if (this.several || starts) this.chars += p.delta.length;
        else if (p.delta !== '') one = true;
      } else if (p.type === 'text-delta' || p.type === 'reasoning-delta') {
        if (this.several) this.chars += p.delta.length;
        else if (p.delta !== '') one = true;
      }
    }
    if (one) this.chunks++;
  }

  /** The whole answer's tokens so far. */
  get tokens(): number {
    return this.before + this.chunks + Math.round(this.chars / CHARS_PER_TOKEN);
  }
}
