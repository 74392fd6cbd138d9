import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { speechText } from '../../src/renderer/markdown/to-speech';

describe('speechText: an answer as a screen reader should hear it', () => {
  it('speaks the words of headings, emphasis, inline code and links, not their markup', () => {
    const said = speechText('## Setup steps\n\nInstall **Node** and run `npm ci`, see [the guide](https://example.com/guide).\n');
    expect(said).toBe('Setup steps.\n\nInstall Node and run npm ci, see the guide.');
  });

  it('keeps an ordered list item its number and gives every item a sentence of its own', () => {
    const said = speechText('1. Open the file\n2. Save it\n   - with a nested bullet\n\n- bullet one\n- bullet two\n');
    expect(said).toBe('1. Open the file.\n\n2. Save it.\n\nwith a nested bullet.\n\nbullet one.\n\nbullet two.');
  });

  it('reads a table as its row count and each row with commas, with no pipes', () => {
    const said = speechText('| Name | Size |\n|---|---|\n| `a.txt` | 1 KB |\n| b.txt | 2 KB |\n');
    expect(said).toBe('Table, 2 rows:\n\nName, Size.\n\na.txt, 1 KB.\n\nb.txt, 2 KB.');
  });

  it('reads a one-line code block and names a longer one instead of reading it', () => {
    expect(speechText('```bash\nnpm install\n```\n')).toBe('Code: npm install.');
    const said = speechText('Here:\n\n```python\ndef f():\n    return 1\n```\n\nDone!');
    expect(said).toBe('Here:\n\nCode in python, 2 lines, shown in the chat.\n\nDone!');
    expect(said).not.toContain('return');
  });

  it('does not end a sentence twice, and joins a paragraph broken over lines', () => {
    expect(speechText('Is it ready?\nYes: it is.')).toBe('Is it ready? Yes: it is.');
    // A hard break (two trailing spaces) is a pause inside the sentence, not a new one.
    expect(speechText('First line  \nsecond line')).toBe('First line second line.');
    expect(speechText('> quoted\n\n---\n\nAfter the rule')).toBe('quoted.\n\nAfter the rule.');
  });

  it('speaks every word of decorated markdown, in order, and none of the decoration', () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/);
    const decorate = fc.constantFrom((w: string) => w, (w: string) => `**${w}**`, (w: string) => `*${w}*`, (w: string) => `\`${w}\``, (w: string) => `[${w}](https://example.com/${w})`);
    const line = fc.array(fc.tuple(word, decorate), { minLength: 1, maxLength: 8 });
    const block = fc.tuple(fc.constantFrom('', '# ', '### ', '- ', '1. ', '> '), line);
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), (blocks) => {
        const markdown = blocks.map(([lead, words]) => lead + words.map(([w, d]) => d(w)).join(' ')).join('\n\n');
        const said = speechText(markdown);
        const words = blocks.flatMap(([, ws]) => ws.map(([w]) => w));
        expect(said.match(/[a-z]+/g)).toEqual(words);
        expect(said).not.toMatch(/[*`#>[\]()]|https?:/);
      }),
    );
  });
});
