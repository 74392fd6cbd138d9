/**
 * Generated tokens become the same text however they are batched: each take is the text of its tokens as it
 * renders in place (a leading space kept after the first token), and a character split over byte tokens never
 * comes out as U+FFFD halves, whichever take it straddles.
 */
import fc from 'fast-check';
import type { Token } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import { TokenText } from '../../../src/main/builtin/token-text';

/**
 * A SentencePiece-like vocabulary as llama.cpp detokenizes it: a token is bytes ("▁" for a space, or one byte of a
 * character), the text of a whole sequence drops its first leading space, and bytes that are not yet a whole
 * character read as U+FFFD. `lastTokens` works as node-llama-cpp's LlamaModel.detokenize: the text of context +
 * tokens, less the context's text.
 */
class FakeVocab {
  private readonly bytes = new Map<number, Uint8Array>();
  private readonly ids = new Map<string, number>();

  token(bytes: Uint8Array): Token {
    const key = Array.from(bytes).join(',');
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(key, id);
      this.bytes.set(id, bytes);
    }
    return id as Token;
  }

  private raw(tokens: readonly Token[]): string {
    const all = tokens.flatMap((t) => Array.from(this.bytes.get(t)!));
    const text = new TextDecoder('utf-8', { fatal: false }).decode(Uint8Array.from(all)).replaceAll('\u2581', ' ');
    return text.startsWith(' ') ? text.slice(1) : text;
  }

  detokenize = (tokens: readonly Token[], _special?: boolean, lastTokens?: readonly Token[]): string => {
    if (tokens.length === 0) return '';
    if (!lastTokens || lastTokens.length === 0) return this.raw(tokens);
    const added = this.raw(lastTokens);
    if (added === '') return this.raw(tokens);
    const text = this.raw([...lastTokens, ...tokens]);
    return text.startsWith(added) ? text.slice(added.length) : this.raw(tokens);
  };
}

const encoder = new TextEncoder();
/**
 * Words and characters of 1 to 4 UTF-8 bytes, each either one token or one token per byte. Never U+FFFD itself:
 * a model's real U+FFFD comes out as it is (its own test below), which this property's "no U+FFFD" would refuse.
 */
const piece = fc.record({
  text: fc.oneof(
    fc.constantFrom('▁the', '▁cat', 'é', 'ü', '中', '文', '😀', '𝄞', '.', '\n', '▁'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }).filter((s) => !s.includes('\uFFFD')),
  ),
  split: fc.boolean(),
});

describe('TokenText', () => {
  it('gives the text of the whole answer whatever the batches, and never half a character', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 40 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 200 }), (pieces, takes) => {
        const vocab = new FakeVocab();
        // The answer opens with a word: with nothing but spaces before it, node-llama-cpp's context rule falls back
        // to the token alone (its text empty), which drops a leading space however the tokens are batched.
        const tokens = [{ text: '▁Hi', split: false }, ...pieces].flatMap(({ text, split }) => {
          const b = encoder.encode(text);
          return split ? Array.from(b, (x) => vocab.token(Uint8Array.of(x))) : [vocab.token(b)];
        });
        const text = new TokenText(vocab);
        const out: string[] = [];
        tokens.forEach((t, i) => {
          text.push(t);
          if (takes[i % takes.length]) out.push(text.take());
        });
        out.push(text.flush());
        expect(out.join('')).toBe(vocab.detokenize(tokens));
        for (const part of out) expect(part).not.toContain('\uFFFD');
      }),
      { numRuns: 300 },
    );
  });

  it('holds the bytes of an unfinished character until its last byte, then gives it whole', () => {
    const vocab = new FakeVocab();
    const text = new TokenText(vocab);
    text.push(vocab.token(encoder.encode('▁say')));
    const [a, b, c, d] = Array.from(encoder.encode('😀'), (x) => vocab.token(Uint8Array.of(x)));
    text.push(a!);
    text.push(b!);
    expect(text.take()).toBe('say');
    text.push(c!);
    expect(text.take()).toBe('');
    text.push(d!);
    text.push(vocab.token(encoder.encode('▁now')));
    expect(text.take()).toBe('😀 now');
    expect(text.flush()).toBe('');
  });

  it('releases a real U+FFFD once more tokens than any character has follow it', () => {
    const vocab = new FakeVocab();
    const text = new TokenText(vocab);
    // A lone continuation byte is no character at all: llama.cpp shows it as U+FFFD.
    const broken = vocab.token(Uint8Array.of(0x80));
    text.push(broken);
    expect(text.take()).toBe('');
    text.push(broken);
    text.push(broken);
    expect(text.take()).toBe('');
    text.push(broken);
    expect(text.take()).toBe('\uFFFD\uFFFD\uFFFD\uFFFD');
  });
});
