import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import katex from 'katex';
import { enableMath, markdownToHtml, mayHoldMath } from '../../src/renderer/markdown/to-html';
import { mathPlugin } from '../../src/renderer/markdown/math';
import { splitMarkdownBlocks } from '../../src/renderer/markdown/split-blocks';
import { speechText } from '../../src/renderer/markdown/to-speech';

/** An answer in Qwen/DeepSeek's math shape (test/fixtures/model-output/NOTES.md). */
const ANSWER = readFileSync(new URL('../fixtures/model-output/tex-delimiters.md', import.meta.url), 'utf8');

/**
 * The HTML outside code as the reader sees it: KaTeX keeps each formula's source in an <annotation>, and math.ts in
 * its `data-tex` (for a copy of it), neither shown.
 */
function prose(html: string): string {
  return html.replace(/<annotation[^>]*>[\s\S]*?<\/annotation>|<code[^>]*>[\s\S]*?<\/code>| data-tex="[^"]*"/g, '');
}

/** How many formulas KaTeX typeset (each carries its source in data-tex), and how many of them as displays. */
function formulas(html: string): { all: number; display: number } {
  return { all: (html.match(/ data-tex="/g) ?? []).length, display: (html.match(/class="katex-display"/g) ?? []).length };
}

describe('\\( … \\) and \\[ … \\] math (Qwen, DeepSeek)', () => {
  beforeAll(() => enableMath(mathPlugin));

  it('typesets both delimiter styles where the models put them, and leaves escaped brackets and code alone', () => {
    const html = markdownToHtml(ANSWER);
    // Four inline \( \) and five displays: after a sentence, two in the list, one mid-sentence, the boxed answer.
    expect(formulas(html)).toEqual({ all: 9, display: 5 });
    expect(prose(html)).not.toMatch(/\\frac|\\int|\\boxed|\\sec/);
    // What the user reported: the delimiters eaten as escapes, the TeX shown as text.
    expect(prose(html)).not.toContain('( \\frac');
    // Markdown escapes of brackets stay brackets; code keeps its delimiters as written.
    expect(html).toContain('This is the standard result [1]; the table in [2, p. 14] lists it too.');
    expect(html).toContain('<li>[x] Checked against a table of integrals.</li>');
    expect(html).toContain('<code>\\( \\sec x \\)</code>');
    expect(html).toContain('\\[ \\int \\sec x \\, dx \\]\n</code></pre>');
    // A display inside a sentence stays inside its paragraph (no <p> in a <p>).
    expect(html).toMatch(/<p dir="auto">The area of a circle, for comparison, is <span class="katex-display">[\s\S]*<\/span> in the same notation\.<\/p>/);
  });

  it('loads KaTeX for a text whose only math is in backslash delimiters', () => {
    expect(mayHoldMath('where \\( x > 0 \\)')).toBe(true);
    expect(mayHoldMath('\\[\nx\n\\]')).toBe(true);
    expect(mayHoldMath('no math (here) [1]')).toBe(false);
  });

  it('shows a \\[ block still streaming as its draft source, never as text, and the chunks before it as they will stay', () => {
    const open = ANSWER.indexOf('\\[\n\\boxed');
    const final = splitMarkdownBlocks(ANSWER).map((chunk) => markdownToHtml(chunk));
    for (const cut of [open + 2, open + 3, open + 10, ANSWER.indexOf('\\]', open) + 1]) {
      const chunks = splitMarkdownBlocks(ANSWER.slice(0, cut));
      const tail = markdownToHtml(chunks[chunks.length - 1]!);
      expect(tail, `cut at ${cut}`).toMatch(/^<p class="katex-block math-draft">/);
      expect(tail).not.toMatch(/<p[^>]*>\[/);
      expect(chunks.slice(0, -1).map((chunk) => markdownToHtml(chunk))).toEqual(final.slice(0, chunks.length - 1));
    }
    // A half-written formula in the draft is not typeset in red at every token.
    expect(markdownToHtml('\\[\n\\frac{1}{')).not.toContain('katex-error');
    // One never closed inside a list item ends with the item: the line after it is not lost.
    expect(markdownToHtml('- item\n  \\[\n  x = 1\nAfter the list.')).toContain('After the list.');
  });

  it('shows a $$ block still streaming as a draft too: an aligned derivation is no TeX before its \\end', () => {
    const derivation = '$$\n\\begin{aligned}\na &= b + c \\\\\n  &= d\n\\end{aligned}\n$$';
    for (let cut = 3; cut < derivation.length - 1; cut++) {
      const html = markdownToHtml(derivation.slice(0, cut));
      expect(html, derivation.slice(0, cut)).toMatch(/^<p class="katex-block math-draft">/);
      expect(html).not.toContain('katex-error');
    }
    expect(formulas(markdownToHtml(derivation))).toEqual({ all: 1, display: 1 });
    expect(formulas(markdownToHtml('$$x = 1$$\n\n- item\n  $$\n  y\n  $$'))).toEqual({ all: 2, display: 2 });
  });

  it('keeps a \\[ … \\] formula with a blank line in one chunk', () => {
    expect(splitMarkdownBlocks('Before\n\n\\[\na = b\n\nc = d\n\\]\n\nAfter')).toEqual(['Before', '\\[\na = b\n\nc = d\n\\]', 'After']);
    // A line that starts with an escaped bracket opens nothing.
    expect(splitMarkdownBlocks('\\[1\\] Smith, 2020.\n\nNext')).toEqual(['\\[1\\] Smith, 2020.', 'Next']);
  });

  it('reads the formulas as their source to a screen reader', () => {
    const speech = speechText('Since \\( a^2 \\) grows, \\[ c = a^2 \\] holds:\n\\[\nb = a^2\n\\]');
    expect(speech).toContain('Since a^2 grows, c = a^2 holds:');
    expect(speech).toContain('Formula: b = a^2');
  });
});
describe('bare \\begin{align} … \\end{align} (Qwen, DeepSeek)', () => {
  beforeAll(() => enableMath(mathPlugin));

  it('typesets a closed align, equation, gather or aligned on its own lines as a display, in a list or a quote too', () => {
    const align = 'We get:\n\\begin{align}\nx &= a + b \\\\\ny &= \\frac{x}{2}\n\\end{align}\nso y is half of x.';
    const html = markdownToHtml(align);
    expect(formulas(html)).toEqual({ all: 1, display: 1 });
    expect(prose(html)).not.toMatch(/\\begin|\\frac|&amp;=/);
    expect(html).toContain('We get:');
    expect(html).toContain('so y is half of x.');
    for (const env of ['equation', 'equation*', 'gather*', 'aligned', 'align*']) {
      const body = env.startsWith('equation') ? 'E = mc^2' : 'a &= b \\\\ c &= d';
      expect(formulas(markdownToHtml(`\\begin{${env}}\n${body}\n\\end{${env}}`)), env).toEqual({ all: 1, display: 1 });
    }
    // Nested: the outer one's \end closes it, on one line or over many.
    expect(formulas(markdownToHtml('\\begin{equation}\\begin{aligned}a &= b\\end{aligned}\\end{equation}'))).toEqual({ all: 1, display: 1 });
    expect(formulas(markdownToHtml('- Step 1:\n  \\begin{align}\n  a &= b\n  \\end{align}\n- Step 2'))).toEqual({ all: 1, display: 1 });
    expect(formulas(markdownToHtml('> \\begin{gather}\n> a = b\n> \\end{gather}'))).toEqual({ all: 1, display: 1 });
    expect(mayHoldMath('\\begin{align}')).toBe(true);
  });

  it('leaves it as written in code, inside a line of prose, or open with text after it; drafts it while it streams', () => {
    for (const text of ['```tex\n\\begin{align}\na &= b\n\\end{align}\n```', '    \\begin{align}\n    a &= b\n    \\end{align}', 'Write \\begin{align} a &= b \\end{align} in LaTeX.', '`\\begin{align}`', '\\begin{align}\na &= b\n\nMore text.', '\\begin{itemize}\n\\item a\n\\end{itemize}']) {
      const html = markdownToHtml(text);
      expect(formulas(html), text).toEqual({ all: 0, display: 0 });
      expect(html, text).not.toContain('math-draft');
    }
    // The tail of a streaming answer: a draft of its source, not red errors nor raw text at each token.
    const draft = markdownToHtml('So:\n\\begin{align}\nx &= 1 \\\\\ny &=');
    expect(draft).toContain('<p class="katex-block math-draft">\\begin{align}\nx &#38;= 1 \\\\\ny &#38;=</p>');
    expect(formulas(draft)).toEqual({ all: 0, display: 0 });
  });
});

describe('a line that starts with $$…$$ and goes on', () => {
  beforeAll(() => enableMath(mathPlugin));

  it('is a paragraph with its formula, not a display block that swallows the rest of the answer as a draft', () => {
    const answer = '$$E = mc^2$$ is the famous one.\n\nMore text after it.\n\nAnd more.';
    const html = markdownToHtml(answer);
    expect(html).not.toContain('math-draft');
    expect(formulas(html).all).toBe(1);
    expect(html).toContain('<p dir="auto">More text after it.</p>');
    // The chunks are the paragraphs: the rest of the answer is not one block drawn again at each token.
    expect(splitMarkdownBlocks(answer)).toHaveLength(3);
    // Still a display: $$ on its own line, or a whole line; and still a draft while one streams.
    expect(formulas(markdownToHtml('$$E = mc^2$$'))).toEqual({ all: 1, display: 1 });
    expect(formulas(markdownToHtml('$$\nE = mc^2\n$$\n\nAfter.'))).toEqual({ all: 1, display: 1 });
    expect(markdownToHtml('Then:\n\n$$\nE = mc')).toContain('math-draft');
    expect(splitMarkdownBlocks('$$\na\n\nb\n$$\n\nAfter')).toEqual(['$$\na\n\nb\n$$', 'After']);
  });

  it('goes on the paragraph it follows, its formula a display inside it, while it streams and once finished', () => {
    const answer = 'The mass-energy relation:\n$$E = mc^2$$ is the famous one.\nIt links the two.';
    const html = markdownToHtml(answer);
    // One paragraph, as a \[ … \] line there makes: before, the line left the paragraph for one of its own, whose
    // formula was a <p> inside that <p> (the page then closed the paragraph before it and left the prose bare).
    expect(html.match(/<p\b/g)).toHaveLength(1);
    expect(html).toMatch(/^<p dir="auto">The mass-energy relation:<br>\n<span class="katex-display">[\s\S]*<\/span> is the famous one\.<br>\nIt links the two\.<\/p>\n$/);
    expect(formulas(html)).toEqual({ all: 1, display: 1 });
    expect(html).toBe(markdownToHtml(answer.replace('$$E = mc^2$$', '\\[E = mc^2\\]')).replace('\\[', '$$'));
    // At every cut from the first letter of prose after the formula on: the same one paragraph.
    for (let at = answer.indexOf('$$ is') + 4; at <= answer.length; at++) expect(markdownToHtml(answer.slice(0, at)).match(/<p\b/g), answer.slice(0, at)).toHaveLength(1);
  });
});

describe('formulas in a streaming answer', () => {
  beforeAll(() => enableMath(mathPlugin));

  it('are typeset once each: not again at every token of the text that follows them in the same chunk, nor while open', () => {
    const steps = (n: number) => Array.from({ length: 30 }, (_, i) => `  &= \\sum_{k=0}^{${i + n}} \\binom{n}{k} x^k y^{n-k} \\\\`).join('\n');
    const answer = `The derivation:\n\n\\[\n\\begin{aligned}\n(x+y)^n\n${steps(2)}\n\\end{aligned}\n\\]\nwhere each step uses the one before it, and $n \\ge 0$ throughout.\n$$\n\\begin{aligned}\n(x-y)^n\n${steps(3)}\n\\end{aligned}\n$$\nand the same holds with a minus, as the first identity said.`;
    // KaTeX as this code imports it, and as the KaTeX plugin requires it (its CommonJS build, another instance).
    const typesetters = [vi.spyOn(katex, 'renderToString'), vi.spyOn(createRequire(import.meta.url)('katex') as typeof katex, 'renderToString')];
    let drawn = '';
    // The chat's growing tail, a few characters more at each token: the formulas and the prose after them are one chunk.
    for (let at = 1; at <= answer.length; at += 5) drawn = markdownToHtml(splitMarkdownBlocks(answer.slice(0, at)).at(-1)!);
    drawn = markdownToHtml(splitMarkdownBlocks(answer).at(-1)!);
    const calls = (source: string) => typesetters.reduce((n, spy) => n + spy.mock.calls.filter(([tex]) => tex.includes(source)).length, 0);
    // Before, each was typeset again at every token after it closed (the first 328 times here); an open one is its
    // source, a draft.
    expect(calls('(x+y)^n')).toBe(1);
    expect(calls('(x-y)^n')).toBe(1);
    expect(calls('n \\ge 0')).toBe(1);
    expect(formulas(drawn)).toEqual({ all: 3, display: 2 });
    for (const spy of typesetters) spy.mockRestore();
  });
});
