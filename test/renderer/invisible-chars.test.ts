import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../src/renderer/markdown/to-html';

/** Trojan Source's examples and a zero-width space in code (test/fixtures/model-output/NOTES.md). */
const ANSWER = readFileSync(new URL('../fixtures/model-output/trojan-source.md', import.meta.url), 'utf8');

/** The text a browser would hold for an HTML fragment: tags dropped, the entities markdown-it and highlight.js write read. */
function text(html: string): string {
  const named: Record<string, string> = { quot: '"', lt: '<', gt: '>', amp: '&' };
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:#x([0-9a-f]+)|#(\d+)|(quot|lt|gt|amp));/gi, (_, hex?: string, dec?: string, name?: string) =>
      name ? named[name]! : String.fromCodePoint(hex ? parseInt(hex, 16) : Number(dec)),
    );
}

/** Each code block's and code span's HTML. */
function codes(html: string): string[] {
  return [...html.matchAll(/<code[^>]*>([\s\S]*?)<\/code>/g)].map((m) => m[1]!);
}

describe('invisible characters in code (Trojan Source, CVE-2021-42574)', () => {
  it('shows each direction control and zero-width character in code as its code point, keeping the text exact', () => {
    const html = markdownToHtml(ANSWER);
    const marked = [...html.matchAll(/<span class="invisible-char" data-code-point="(U\+[0-9A-F]{4})" title="([^"]*)">(.)<\/span>/gu)];
    expect(marked.map((m) => m[1])).toEqual(['U+202E', 'U+2066', 'U+2069', 'U+2066', 'U+2067', 'U+2069', 'U+200B']);
    expect(marked[0]![2]).toBe('U+202E RIGHT-TO-LEFT OVERRIDE');
    // The character itself is still inside its marker: the Copy button (textContent) and a selection copy it.
    for (const m of marked) expect(m[3]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')).toBe(m[1]!.slice(2));
    // Every code block and span holds exactly the text the model wrote.
    const [js, py, call, log] = codes(html).map(text);
    expect(js).toBe(ANSWER.split('```js\n')[1]!.split('```')[0]);
    expect(py).toBe(ANSWER.split('```python\n')[1]!.split('```')[0]);
    expect(call).toBe('is_\u200Badmin()');
    // A zero-width joiner that draws an emoji is no trick.
    expect(log).toBe('log("\u{1F468}\u200D\u{1F4BB} done")');
    expect(codes(html)[3]).not.toContain('invisible-char');
  });

  it('leaves code without them as it was, and prose alone', () => {
    expect(markdownToHtml('```\nplain()\n```\n\n`x`')).not.toContain('invisible-char');
    expect(markdownToHtml('a\u200Bb')).toBe('<p dir="auto">a\u200Bb</p>\n');
    expect(markdownToHtml('    indented\u202Ecode')).toContain('data-code-point="U+202E"');
  });

  it('marks the direction controls in prose too, where they would reorder a file name or a command, and leaves real Arabic, Hebrew and Persian alone', () => {
    // "open \u202Etxt.exe" shows as "open exe.txt": the reader would run what they did not read.
    const html = markdownToHtml('# Get \u202Eexe.gpj\n\nOpen \u202Efdp.exe\u202C now, then run `ls` and [\u2067x\u2069](https://example.com).\n\n| file |\n|---|\n| \u202Dab |');
    const points = [...html.matchAll(/<span class="invisible-char" data-code-point="(U\+[0-9A-F]{4})"[^>]*>(.)<\/span>/gu)];
    expect(points.map((m) => m[1])).toEqual(['U+202E', 'U+202E', 'U+202C', 'U+2067', 'U+2069', 'U+202D']);
    // The text is as the model wrote it: the marker holds the character.
    expect(text(html)).toContain('Open \u202Efdp.exe\u202C now');
    // Right-to-left text with its marks and joiners (which reorder nothing on their own) is untouched.
    for (const prose of ['\u0627\u0644\u0645\u0644\u0641 \u200Fconfig.json\u200F \u062C\u0627\u0647\u0632', '\u05E9\u05DC\u05D5\u05DD \u200Eok\u200E', '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645'])
      expect(markdownToHtml(prose)).toBe(`<p dir="auto">${prose}</p>\n`);
  });
});
