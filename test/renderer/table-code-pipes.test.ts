import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../src/renderer/markdown/to-html';
import { withPendingTable } from '../../src/renderer/markdown/pending-table';
import { tableCodePipes } from '../../src/renderer/markdown/table-code-pipes';

/** Each row's cells, as text. */
function rows(html: string): string[][] {
  return [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => cell[1]!));
}

describe('a pipe in a code span in a table row', () => {
  it('stays in its cell, and the row keeps its last cell (a command table, as models write them)', () => {
    const answer = 'Useful commands:\n\n| Command | What it does |\n|---|---|\n| `ps aux | grep node` | Finds the node processes |\n| `cat log \\| tail` | Shows the end |\n| `ls` | Lists |\n';
    // Before: "`ps aux" and "grep node`", and "Finds the node processes" dropped past the header's two columns.
    expect(rows(markdownToHtml(answer))).toEqual([
      ['Command', 'What it does'],
      ['<code>ps aux | grep node</code>', 'Finds the node processes'],
      ['<code>cat log | tail</code>', 'Shows the end'],
      ['<code>ls</code>', 'Lists'],
    ]);
    // In a header, in a quote, and while the header streams (pending-table.ts counts its columns the same way).
    expect(rows(markdownToHtml('> | `a | b` | c |\n> |---|---|\n> | 1 | 2 |'))).toEqual([['<code>a | b</code>', 'c'], ['1', '2']]);
    expect(rows(markdownToHtml(withPendingTable('| `a | b` | c |')))).toEqual([['<code>a | b</code>', 'c']]);
  });

  // Found by the nested-list property test: after an empty first item, the code block the next item left open was
  // taken to run on into the item after it, and that item's table was left unescaped (its cells split at the pipe).
  it('stays in its cell in a list item after one whose code block the item ended, the list begun with an empty item', () => {
    const answer = '1. \n2. Tip\n   ```js\n3. Tip\n   | h0 |\n   | --- |\n   | `a|b` | a |\n';
    expect(rows(markdownToHtml(answer))).toEqual([['h0'], ['<code>a|b</code>']]);
  });

  // Found by the quote property test: a formula (drawn as a draft to its quote's end while open) or a code block in a
  // quote was lost at a nested quote's line, and the rows after it were escaped, a backslash shown in them.
  it('is left as written in a display formula, and in a quote\'s formula or code block through a nested quote', () => {
    for (const text of [
      '$$\n| h | x |\n|---|---|\n| `a|b` | c |',
      '\\[\n| h | x |\n|---|---|\n| `a|b` | c |',
      '> $$\n> > deeper\n> | h | x |\n> |---|---|\n> | `a|b` | c |',
      '> ```\n> > deeper\n> | h | x |\n> |---|---|\n> | `a|b` | c |',
      '> > ```\n> > x\n> > | h | x |\n> > |---|---|\n> > | `a|b` | c |',
    ])
      expect(tableCodePipes(text), JSON.stringify(text)).toBe(text);
    // Past the formula's end, and in a quote after a nested one closed its own code block, a table is a table.
    expect(tableCodePipes('$$\nx\n$$\n| h | x |\n|---|---|\n| `a|b` | c |')).toContain('`a\\|b`');
    expect(tableCodePipes('> > ```\n> > x\n> > ```\n> | `a|b` | c |\n> |---|---|')).toContain('`a\\|b`');
    expect(tableCodePipes('> > ```\n> > x\n> | `a|b` | c |\n> |---|---|')).toContain('`a\\|b`');
  });

  it('is left as written outside tables: in prose, in code blocks, in a row of pipes with no delimiter row', () => {
    expect(markdownToHtml('In prose `a | b` stays.')).toBe('<p dir="auto">In prose <code>a | b</code> stays.</p>\n');
    expect(markdownToHtml('```md\n| `x | y` | z |\n|---|---|\n```')).toContain('`x | y`');
    // In a quote (and in a fold in a quote), where the code's lines are behind the quote's markers.
    expect(markdownToHtml('> ```md\n> | `x | y` | z |\n> |---|---|\n> ```')).toContain('`x | y`');
    expect(markdownToHtml('> <details>\n> ```\n> | `x | y` | z |\n> |---|---|\n> ```\n> </details>')).toContain('`x | y`');
    expect(markdownToHtml('> > ```\n> > | `x | y` | z |\n> > |---|---|')).toContain('`x | y`');
    // The quote's code ends with the quote: a table after it is a table.
    expect(rows(markdownToHtml('> ```\n> code\n\n| `x | y` | z |\n|---|---|'))).toEqual([['<code>x | y</code>', 'z']]);
    expect(markdownToHtml('| `x | y` | z |\nnot a table')).toContain('<code>x | y</code>');
    // Indented 4 spaces: an indented code block, or a code block in a nested list item (not seen by the line scan).
    expect(markdownToHtml('    | `x | y` | z |\n    |---|---|')).toContain('| `x | y` | z |');
    expect(markdownToHtml('- a\n  - b\n    ```md\n    | `x | y` | z |\n    |---|---|\n    ```')).toContain('`x | y`');
  });

  it('is never shown escaped: a row whose next line is not a delimiter row for its cells is left as written', () => {
    // While an answer streams, the line after a row may be a list item's lone "-" (its text not yet come) or the
    // start of a rule: markdown-it reads neither as a delimiter row, so the row stays a paragraph, where a backslash
    // in a code span shows.
    for (const text of ['| `a|b` |\n-', '| `a|b` |\n- next', '1. x\n   | `a|b` |\n-', '> | `a|b` |\n> -']) {
      const html = markdownToHtml(text);
      expect(html, text).toContain('<code>a|b</code>');
      expect(html, text).not.toContain('\\|');
    }
    // A delimiter row with as many columns as the row has cells split at every pipe: markdown-it's table, as written.
    expect(rows(markdownToHtml('| `a|b` |\n|---|---|'))).toEqual([['`a', 'b`']]);
    // One with as many as the cells with the code span kept whole: the table the pipe belongs in.
    expect(rows(markdownToHtml('| `a|b` |\n|---|'))).toEqual([['<code>a|b</code>']]);
  });
});
