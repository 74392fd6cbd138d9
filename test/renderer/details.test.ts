import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../src/renderer/markdown/to-html';
import { splitMarkdownBlocks } from '../../src/renderer/markdown/split-blocks';
import { speechText } from '../../src/renderer/markdown/to-speech';

/** The shapes models write (GitHub's own docs teach the first; the second is the one-line form). */
const NEXT_LINE = '<details>\n<summary>Full **code**</summary>\n\n```py\nprint("</details>")\n```\n\n- one\n- two\n\n</details>\n\nAfter.';
/** The HTML without the newlines markdown-it puts between tags. */
const flat = (text: string) => markdownToHtml(text).replace(/\n/g, '');
const SAME_LINE = '<details><summary>Why?</summary>\n\nBecause *so*.\n</details>';

describe('<details> in an answer', () => {
  it('is a collapsible element with its summary, and markdown inside it: code, lists, emphasis', () => {
    const html = flat(NEXT_LINE);
    expect(html).toMatch(/^<details dir="auto"><summary>Full <strong>code<\/strong><\/summary><pre class="code-block">/);
    // A </details> inside the code is code.
    expect(html).toContain('&lt;/details&gt;');
    expect(html).toContain('<ul><li>one</li>');
    expect(html).toContain('</ul></details><p dir="auto">After.</p>');
    expect(flat(SAME_LINE)).toBe('<details dir="auto"><summary>Why?</summary><p>Because <em>so</em>.</p></details>');
  });

  it('nests, opens with `open`, says "Details" with no summary, and runs to the end while unclosed (streaming)', () => {
    const nested = flat('<details>\n<summary>A</summary>\n\n<details open>\n<summary>B</summary>\n\ninner\n</details>\n\nouter\n</details>');
    expect(nested).toMatch(/<details dir="auto"><summary>A<\/summary><details open=""><summary>B<\/summary><p>inner<\/p><\/details><p>outer<\/p><\/details>/);
    expect(flat('<details>\nbody\n</details>')).toContain('<summary>Details</summary><p>body</p>');
    expect(flat('<details>\n<summary>Log</summary>\n\nline 1\nline')).toBe('<details dir="auto"><summary>Log</summary><p>line 1<br>line</p></details>');
  });

  it('closes at a </details> written at the end of the last line, and the text after it is outside', () => {
    expect(flat('<details>\n<summary>S</summary>\n\nbody *x*</details>\n\nafter')).toBe('<details dir="auto"><summary>S</summary><p>body <em>x</em></p></details><p dir="auto">after</p>');
    expect(splitMarkdownBlocks('<details>\n<summary>S</summary>\n\nbody</details>\n\nafter')).toHaveLength(2);
  });

  it('keeps anything with other attributes, or not on a line of its own, as text', () => {
    for (const text of ['<details open ontoggle="alert(1)">x</details>', '<details><summary>one line</summary>x</details>', '<details ontoggle=alert(1)>\n<summary>x</summary>\n</details>', 'see <details> here', '`<details>`', '    <details>\n    x\n    </details>']) {
      const html = markdownToHtml(text);
      expect(html, text).not.toMatch(/<details|<summary/);
    }
  });

  it('is one chunk with its blank lines (the answer is rendered a chunk at a time), and is read out', () => {
    expect(splitMarkdownBlocks(`Intro\n\n${NEXT_LINE}`)).toEqual(['Intro', NEXT_LINE.replace('\n\nAfter.', ''), 'After.']);
    expect(speechText(SAME_LINE)).toContain('Why?');
    expect(speechText(SAME_LINE)).toContain('Because so.');
  });

  it('is marked as still being written while the answer streams into it, and not once it closes or the answer ends', () => {
    const open = '<details>\n<summary>Full file</summary>\n\n```py\nprint(1)';
    expect(markdownToHtml(open, undefined, { streaming: true })).toMatch(/^<details data-writing="" dir="auto">\n<summary>Full file<\/summary>/);
    // Nested: both are open, so both are being written.
    expect(markdownToHtml('<details>\n<summary>A</summary>\n\n<details>\n<summary>B</summary>\n\ntext', undefined, { streaming: true }).match(/data-writing/g)).toHaveLength(2);
    // Closed, or the answer finished with it open: nothing.
    expect(markdownToHtml(`${open}\n\`\`\`\n</details>\n\nMore`, undefined, { streaming: true })).not.toContain('data-writing');
    expect(markdownToHtml('<details>\n<summary>A</summary>\n\ntext</details>\n\nMore', undefined, { streaming: true })).not.toContain('data-writing');
    expect(markdownToHtml(open)).not.toContain('data-writing');
  });
});

