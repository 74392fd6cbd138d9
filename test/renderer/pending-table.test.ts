import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../src/renderer/markdown/to-html';
import { withPendingTable } from '../../src/renderer/markdown/pending-table';

/** What a streaming tail looks like on screen (render.ts draws a tail through withPendingTable). */
const drawn = (tail: string) => markdownToHtml(withPendingTable(tail));
/** The raw table text a reader would see flash: a pipe outside a table. */
const rawPipe = (html: string) => /<p[^>]*>[^<]*\|/.test(html.replace(/<table[\s\S]*?<\/table>/g, ''));

const TABLE = 'Here are the results:\n\n| Model | Size | Speed |\n|:------|-----:|:-----:|\n| Qwen | 7B | fast |\n| Llama | 8B | ok |\n';

describe('a table while it streams', () => {
  it('never shows its header row as raw text: at every cut from the first pipe on, the header is a table head', () => {
    const tail = TABLE.slice(TABLE.indexOf('|'));
    for (let at = 2; at <= tail.length; at++) {
      const html = drawn(tail.slice(0, at));
      expect(rawPipe(html), JSON.stringify(tail.slice(0, at))).toBe(false);
      // A row only begun (`| `) is held back for a token.
      if (html !== '') expect(html, JSON.stringify(tail.slice(0, at))).toContain('<th');
    }
    // With the paragraph before it in the same chunk (no blank line) too.
    const joined = 'Compare:\n' + tail;
    for (let at = 'Compare:\n'.length + 2; at <= joined.length; at++) expect(rawPipe(drawn(joined.slice(0, at))), joined.slice(0, at)).toBe(false);
  });

  it('shows the header as it will be: its cells, and the alignment once the delimiter row has it', () => {
    expect(drawn('| Model | Size |')).toMatch(/<th>Model<\/th>\s*<th>Size<\/th>/);
    expect(drawn('| Model | Size |\n|:--')).toContain('<th style="text-align:left">Model</th>');
    // In a list item: the row written in is indented as the header is, so it stays in the item.
    expect(drawn('1. Compare:\n\n   | a | b |')).toMatch(/<li>[\s\S]*<th>a<\/th>/);
    expect(drawn('1. Compare:\n\n   | a | b |\n   |--')).toMatch(/<li>[\s\S]*<th>a<\/th>/);
    // The whole table is drawn exactly as the finished text is.
    expect(drawn(TABLE)).toBe(markdownToHtml(TABLE));
  });

  it('shows a table in a quote as a table from its header row on, behind the quote\'s markers, and as it will be when whole', () => {
    const quoted = 'As the docs put it:\n\n> Compare:\n>\n> | Model | Size |\n> |:--|--:|\n> | Qwen | 7B |\n';
    const tail = quoted.slice(quoted.indexOf('> Compare'));
    // From the header's first letter on (a row only begun, `> | `, is held back for a token).
    for (let at = tail.indexOf('| M') + 3; at <= tail.length; at++) {
      const html = drawn(tail.slice(0, at));
      expect(rawPipe(html), JSON.stringify(tail.slice(0, at))).toBe(false);
      expect(html, JSON.stringify(tail.slice(0, at))).toMatch(/<blockquote[^>]*>[\s\S]*<th[^>]*>M/);
    }
    // The row after the header has only its `>` yet: still the table, not "| Model | Size |" as text.
    expect(drawn('> | Model | Size |\n>')).toMatch(/<blockquote[^>]*>\s*<table>[\s\S]*<th>Model<\/th>\s*<th>Size<\/th>/);
    expect(drawn('> > | a | b |\n> > |:-')).toMatch(/<blockquote[^>]*>\s*<blockquote>\s*<table>[\s\S]*<th style="text-align:left">a<\/th>/);
    expect(drawn(quoted)).toBe(markdownToHtml(quoted));
  });

  it('leaves alone what is not a table starting: rows of a table already drawn, code, math, prose with a pipe', () => {
    for (const text of [
      '| a | b |\n|---|---|\n| 1 | 2 |\n| 3',
      '| a | b |\n|---|---|\n|',
      '```\n| not | a table |',
      '```md\n| a | b |\n|--',
      '$$\n|x| + |y|',
      'a | b',
      'plain text',
      '| a | b |\n| c | d |',
      '> ```\n> | not | a table |',
      '| a | b |\n> |--',
      '> quote\n>',
    ])
      expect(withPendingTable(text), text).toBe(text);
  });
});
