import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../src/renderer/markdown/to-html';
import { speechText } from '../../src/renderer/markdown/to-speech';

/** A gpt-oss-style table with <br> in its cells, and <kbd>/<sup>/<sub> in prose (test/fixtures/model-output/NOTES.md). */
const ANSWER = readFileSync(new URL('../fixtures/model-output/html-in-answers.md', import.meta.url), 'utf8');

describe('HTML tags models write inside markdown', () => {
  it('breaks lines at <br> in table cells and draws bare <kbd>, <sup> and <sub>, instead of showing the tags', () => {
    const html = markdownToHtml(ANSWER);
    expect(html).toContain('<td>Reasoning<br>\nTool use</td>');
    expect(html).toContain('<td>Needs ~16\u202fGB<br>\nHarmony format</td>');
    expect(html).toContain('<td>Multilingual<br>\nMath</td>');
    expect(html).toContain('Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to stop. Memory grows as O(n<sup>2</sup>); water is H<sub>2</sub>O.');
    // What the user saw before: the tags as text ("Reasoning&lt;br&gt;Tool use"), anywhere outside code.
    expect(html.split('A tag that')[0]!.replace(/<code>.*?<\/code>/g, '')).not.toContain('&lt;');
  });

  it('keeps as text a tag with attributes, a lone tag, one that is not formatting, and any tag in code', () => {
    const html = markdownToHtml(ANSWER);
    expect(html).toContain('&lt;div align=&quot;center&quot;&gt;, &lt;sup class=&quot;x&quot;&gt;1&lt;/sup&gt;, and a lone &lt;sup&gt; too.');
    expect(html).toContain('<code>&lt;br&gt;</code>');
    expect(markdownToHtml('<script>alert(1)</script> <b onclick="x()">b</b> </sup> <img src=x>')).not.toMatch(/<(?:script|b|img)\b|<\/sup>/);
    expect(markdownToHtml('[a <sup>2</sup>](https://example.com)')).toContain('>a <sup>2</sup></a>');
  });

  it('speaks a <br> as a pause between words, and the tags not at all', () => {
    expect(speechText('Press <kbd>Ctrl</kbd> then<br>wait.')).toBe('Press Ctrl then wait.');
  });
});
