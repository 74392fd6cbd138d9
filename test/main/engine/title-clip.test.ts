/**
 * A long first message's title (chat user's-eyes pass): it was cut at 57 characters, mid-word, and ended with "...",
 * so the top bar said "A long question with a very long unbroken token: aaaaaaaa..." and "…configure the nginx rev...".
 */
import { describe, expect, it } from 'vitest';
import { titleFrom } from '../../../src/main/engine/title-lane';

describe('a title from a long first message', () => {
  it('ends after its last whole word that fits, with an ellipsis', () => {
    const title = titleFrom('How do I configure the nginx reverse proxy for a node app that listens on port 3000?');
    expect(title).toBe('How do I configure the nginx reverse proxy for a node app…');
    expect(title.length).toBeLessThanOrEqual(60);
  });

  it('drops the punctuation a cut word leaves, and keeps a word that ends right at the limit', () => {
    expect(titleFrom('Please compare these two models for speed and memory usage: qwen2.5-coder and llama')).toBe('Please compare these two models for speed and memory usage…');
    const sixty = `${'word '.repeat(11)}abcd`;
    expect(sixty.length).toBe(59);
    expect(titleFrom(`${sixty} more words after it`)).toBe(`${sixty}…`);
  });

  it('cuts a long unbroken word where the limit falls, and leaves a short title alone', () => {
    const long = titleFrom(`Read https://example.com/${'a'.repeat(80)}`);
    expect(long).toBe(`Read https://example.com/${'a'.repeat(34)}…`);
    expect(titleFrom('Hello there')).toBe('Hello there');
    expect(titleFrom('  \n')).toBe('New chat');
  });
});
