import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { answerReferences, enableMath, linkReferences, markdownToHtml, mathEnabled } from '../../src/renderer/markdown/to-html';
import { mathPlugin } from '../../src/renderer/markdown/math';
import fc from 'fast-check';
import { splitGrowing, splitMarkdownBlocks, type SplitState } from '../../src/renderer/markdown/split-blocks';

describe('splitMarkdownBlocks', () => {
  it('splits a growing answer from its last chunk only, into exactly the chunks of the whole text, finished ones kept', () => {
    const line = fc.constantFrom('', ' ', '  - nested', '- item', '1. step', '   ```sh', '  code', '2. next', '```ts', '```', '~~~', '$$', '$$ a $$', '\\[', '\\]', 'x \\]', '\\[ a \\]', '\\[1\\] b', 'text', '    code', '| a | b |', '> quote', '\r', '<details>', '<details><summary>s</summary>', '</details>');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 30 }), (lines, steps) => {
        const full = lines.join('\n');
        let state: SplitState | undefined;
        let at = 0;
        for (const step of steps) {
          at = Math.min(full.length, at + step);
          const before = state;
          state = splitGrowing(state, full.slice(0, at));
          expect(state.chunks).toEqual(splitMarkdownBlocks(full.slice(0, at)));
          // What was finished stays the very same strings.
          if (before) for (let i = 0; i < before.chunks.length - 1; i++) expect(state.chunks[i]).toBe(before.chunks[i]);
        }
        expect(splitGrowing(state, full).chunks).toEqual(splitMarkdownBlocks(full));
      }),
      { numRuns: 300 },
    );
  });

  it('cuts at blank lines outside fences, and keeps a fence with blank lines whole', () => {
    const text = 'Intro line\n\n```py\nx = 1\n\ny = 2\n```\n\nOutro';
    expect(splitMarkdownBlocks(text)).toEqual(['Intro line', '```py\nx = 1\n\ny = 2\n```', 'Outro']);
  });

  it('keeps a list item’s indented continuation with its list', () => {
    expect(splitMarkdownBlocks('- one\n\n  more about one\n- two\n\nAfter')).toEqual(['- one\n\n  more about one\n- two', 'After']);
  });

  it('renders the same text whether streamed in chunks or whole: only the tail changes while it grows', () => {
    const full = '# T\n\npara one\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\ntail';
    const early = splitMarkdownBlocks(full.slice(0, full.indexOf('tail') + 2));
    const late = splitMarkdownBlocks(full);
    expect(early.slice(0, -1)).toEqual(late.slice(0, -1));
    expect(markdownToHtml(full)).toBe(late.map((b) => markdownToHtml(b)).join(''));
  });
});

describe('markdownToHtml', () => {
  it('escapes raw HTML from the model instead of passing it through', () => {
    const html = markdownToHtml('<img src=x onerror=alert(1)> <script>alert(2)</script>');
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain('&lt;img');
  });

  it('links only http(s), opened outside the app', () => {
    const html = markdownToHtml('[a](javascript:alert(1)) [b](data:text/html,x) [c](https://example.com)');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('[a](javascript:alert(1))'); // left as text
    expect(html).not.toContain('href="data:');
    expect(html).toContain('<a href="https://example.com" title="https://example.com" target="_blank" rel="noopener noreferrer">c</a>');
  });

  it('says on hover where a link goes, whatever its text reads: the desktop window has no status bar to show it', () => {
    // A model (or a page a tool fetched for it) can write one address as a link's text and another as its target.
    const html = markdownToHtml('[https://bank.example](https://bank.example.evil.test/login) and <https://plain.example/a>');
    expect(html).toContain('<a href="https://bank.example.evil.test/login" title="https://bank.example.evil.test/login"');
    expect(html).toContain('<a href="https://plain.example/a" title="https://plain.example/a"');
    // A title the model gave comes after the address, never in its place.
    expect(markdownToHtml('[docs](https://docs.example "https://other.example")')).toContain('title="https://docs.example\nhttps://other.example"');
  });

  it('links `[text][label]` to a definition made in another chunk; a javascript: definition links nothing', () => {
    const defs = linkReferences('[1]: https://example.com/one "One"\n[Two  Words]: https://example.com/two\n[bad]: javascript:alert(1)');
    expect(defs && Object.keys(defs).sort()).toEqual(['1', 'TWO WORDS']);
    expect(linkReferences('No [definitions] here: [a](https://example.com)')).toBeUndefined();
    const html = markdownToHtml('See [one][1], [two][two words] and [bad].', defs);
    expect(html).toContain('<a href="https://example.com/one" title="https://example.com/one\nOne" target="_blank" rel="noopener noreferrer">one</a>');
    expect(html).toContain('<a href="https://example.com/two" title="https://example.com/two" target="_blank" rel="noopener noreferrer">two</a>');
    expect(html).toContain('[bad]');
    expect(html).not.toContain('javascript:');
    // Without them (each chunk on its own), the links stayed text: what the chat showed.
    expect(markdownToHtml('See [one][1].')).not.toContain('<a ');
    // The earlier definition of a label wins, as in CommonMark.
    expect(markdownToHtml('[x][1]\n\n[1]: https://example.com/later', defs)).toContain('href="https://example.com/one"');
  });

  it('gathers an answer’s definitions across its chunks: one object while they stay the same, a streaming line left out', () => {
    const chunks = ['See [one][1] and [two][2].', 'Text.', '[1]: https://example.com/one\n[2]: https://example.com/tw'];
    // The tail's last line is still streaming (its URL is half there): only whole lines count.
    const streaming = answerReferences(chunks, true, true);
    expect(streaming && Object.keys(streaming)).toEqual(['1']);
    expect(answerReferences(chunks, true, true)).toBe(streaming);
    const done = answerReferences([...chunks.slice(0, 2), `${chunks[2]!}o`]);
    expect(done).toEqual({ 1: { href: 'https://example.com/one', title: '' }, 2: { href: 'https://example.com/two', title: '' } });
    expect(answerReferences(['No definitions.', 'None here [x].'])).toBeUndefined();
  });

  it('gives each top-level block of prose its own text direction, so an Arabic or Hebrew paragraph reads right to left', () => {
    const html = markdownToHtml('مرحبا بالعالم.\n\n- أولا\n- ثانيا\n\n> שלום\n\n| א | ב |\n|---|---|\n| 1 | 2 |\n\n## Title\n\n```py\nx = 1\n```');
    expect(html).toContain('<p dir="auto">مرحبا');
    expect(html).toContain('<ul dir="auto">\n<li>أولا</li>');
    expect(html).toContain('<blockquote dir="auto">\n<p>שלום</p>');
    expect(html).toContain('<table dir="auto">');
    expect(html).toContain('<h2 dir="auto">Title</h2>');
    // Code stays left to right, and a block inside a list or quote takes the direction of the list or quote.
    expect(html).not.toMatch(/<(?:pre|code)[^>]* dir=/);
    expect(markdownToHtml('1. one\n\n   two')).toContain('<li>\n<p>one</p>');
  });

  it('draws a task list ("- [ ] to do", "- [x] done") as boxes, ticked or not, instead of the brackets', () => {
    const html = markdownToHtml('- [ ] write the tests\n- [x] fix **the** bug\n- [X] ship it\n- [link](https://example.com)\n- [1] a note');
    expect(html).not.toMatch(/\[[ xX]\]/);
    expect(html).toContain('<li class="task"><span class="task-box" role="img" aria-label="To do"></span> write the tests</li>');
    expect(html).toContain('<li class="task"><span class="task-box" role="img" aria-label="Done" data-done=""></span> fix <strong>the</strong> bug</li>');
    expect(html).toContain('<li class="task"><span class="task-box" role="img" aria-label="Done" data-done=""></span> ship it</li>');
    // Only at an item's start, and only [ ], [x] or [X] followed by words: a link or a bracketed note is not a task.
    expect(html).toContain('<li><a href="https://example.com"');
    expect(html).toContain('<li>[1] a note</li>');
    expect(markdownToHtml('1. [ ] step\n\n   more')).toContain('<li class="task">\n<p><span class="task-box" role="img" aria-label="To do"></span> step</p>');
    expect(markdownToHtml('Say [x] and [ ] here')).toContain('Say [x] and [ ] here');
    expect(markdownToHtml('- [ ]')).toContain('<li>[ ]</li>');
    expect(markdownToHtml('- \\[x\\] kept as written')).toContain('<li>[x] kept as written</li>');
  });

  it('does not load remote images (tracking pixels)', () => {
    expect(markdownToHtml('![x](https://example.com/p.png)')).not.toContain('<img');
  });

  it('renders GFM tables and highlighted code with a copy button and an escaped language label', () => {
    expect(markdownToHtml('| a |\n|---|\n| 1 |')).toContain('<table dir="auto">');
    const code = markdownToHtml('```ts\nconst x = "<b>";\n```');
    expect(code).toContain('hljs-keyword');
    expect(code).toContain('data-copy-code');
    expect(code).not.toContain('<b>');
    expect(markdownToHtml('```"><script>\nx\n```')).not.toContain('<script>');
  });

  it('reads the language of a fence written as in notebooks and docs: {python}, {r, echo=FALSE}, {.python}, python:main.py', () => {
    for (const info of ['{python}', '{.python .numberLines}', 'python:main.py', 'python title="main.py"', 'Python']) {
      const html = markdownToHtml('```' + info + '\nx = "a"\n```');
      expect(html, info).toContain('<span>python</span>');
      expect(html, info).toContain('<span class="hljs-string">');
    }
    expect(markdownToHtml('```{r, echo=FALSE}\nplot(x)\n```')).toContain('<span>r</span>');
  });

  it('highlights every language by its names and aliases, with the languages a grammar embeds (built on first use)', () => {
    const samples = { golang: 'x = "a"', cc: 'x = "a";', md: '# Title', patch: '+ added line', mjs: 'x = "a"', yml: 'x: "a"', shell: 'x="a"' };
    for (const [fence, sample] of Object.entries(samples)) expect(markdownToHtml('```' + fence + '\n' + sample + '\n```'), fence).toContain('<span class="hljs-');
    const html = markdownToHtml('```html\n<style>p { color: red; }</style><script>const a = 1;</script>\n```');
    expect(html).toContain('hljs-selector-tag');
    expect(html).toMatch(/hljs-keyword">const/);
    // A word that is no language (an object's own property names included) shows the code as plain text.
    for (const fence of ['constructor', 'toString', 'klingon']) expect(markdownToHtml('```' + fence + '\nx = 1\n```'), fence).not.toContain('<span class="hljs-');
  });
});

// Before the next describe's beforeAll: KaTeX is its own chunk, loaded by the first text with a `$` (render.ts).
describe('math before KaTeX is loaded', () => {
  it('shows a formula as its source', () => {
    expect(mathEnabled()).toBe(false);
    const html = markdownToHtml('Energy is $E = mc^2$.');
    expect(html).toContain('$E = mc^2$');
    expect(html).not.toContain('katex');
  });
});

describe('math (issue 17)', () => {
  beforeAll(() => enableMath(mathPlugin));

  it('typesets $…$ inline and $$…$$ as a block with KaTeX, and leaves prices alone', () => {
    const html = markdownToHtml('Energy is $E = mc^2$ and\n\n$$\n\\int_0^1 x\\,dx = \\tfrac12\n$$\n\nIt costs $5 and $10.');
    expect(html).toContain('class="katex"');
    expect(html).toContain('katex-display');
    expect(html).toContain('data-tex="E = mc^2"');
    // No <annotation>: the sanitizer drops its tag but keeps its text, which a screen reader then read out.
    expect(html).not.toContain('<annotation');
    expect(html).toContain('It costs $5 and $10.');
    expect(html).not.toContain('<script');
  });

  it('keeps a display formula with a blank line in one chunk, so it renders while the answer streams', () => {
    const text = 'Before\n\n$$\na = b\n\nc = d\n$$\n\nAfter';
    expect(splitMarkdownBlocks(text)).toEqual(['Before', '$$\na = b\n\nc = d\n$$', 'After']);
  });

  it('shows a formula that does not parse as its source, without breaking the answer', () => {
    const html = markdownToHtml('Bad: $\\frac{1}{$ and good text after.');
    expect(html).toContain('good text after');
  });
});

describe('line breaks', () => {
  it('keeps a single newline the model wrote as a line break: a poem, fields, steps (fixture single-newlines.md)', () => {
    const text = readFileSync(new URL('../fixtures/model-output/single-newlines.md', import.meta.url), 'utf8');
    const html = markdownToHtml(text);
    expect(html).toContain('<p dir="auto">The tide comes in on silver feet,<br>\nIt hums a song both low and sweet,<br>\nThen slips away before we meet.</p>');
    expect(html).toContain('<strong>Ticket details</strong><br>\nName: Ada Lovelace<br>\nFlight: LH 2041<br>\nSeat: 14C</p>');
    expect(html).toContain('Step 1: Open the settings.<br>\nStep 2: Choose <em>Models</em>.<br>\n');
    // Lists, tables and code are laid out as before.
    expect(markdownToHtml('- a\n- b\n\n```\nx\ny\n```')).toBe('<ul dir="auto">\n<li>a</li>\n<li>b</li>\n</ul>\n' + markdownToHtml('```\nx\ny\n```'));
    expect(markdownToHtml('```\nx\ny\n```')).not.toContain('<br>');
  });
});
