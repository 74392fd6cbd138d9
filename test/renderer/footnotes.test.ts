import { describe, expect, it } from 'vitest';
import { answerReferences, markdownToHtml } from '../../src/renderer/markdown/to-html';
import { drawTable, tableViewHtml } from '../../src/renderer/markdown/table-view';
import { drawList, listViewHtml } from '../../src/renderer/markdown/list-view';
import { splitGrowing, splitMarkdownBlocks, type SplitState } from '../../src/renderer/markdown/split-blocks';

const asIs = (html: string) => html;

/** An answer as models write one: references in the prose, a table and a list, the notes at the end. */
const ANSWER = [
  'Paris is the capital of France[^1] and has about 2.1 million people[^pop].',
  '',
  '| City | People |',
  '|---|---|',
  '| Paris | 2.1M[^pop] |',
  '',
  '- Founded in the 3rd century BC[^1]',
  '',
  '[^1]: Encyclopaedia, "Paris".',
  '[^pop]: INSEE, 2024 census.',
  '',
].join('\n');

/** Each chunk's HTML as the chat draws a finished answer: a chunk at a time, with the answer's definitions. */
function drawn(text: string): string[] {
  const chunks = splitMarkdownBlocks(text);
  const refs = answerReferences(chunks);
  return chunks.map((chunk) => markdownToHtml(chunk, refs));
}

describe('footnotes', () => {
  it('an answer’s references link to its notes, though each chunk is drawn on its own', () => {
    const [prose, table, list, notes] = drawn(ANSWER);
    expect(prose).toContain('France<sup class="footnote-ref"><a href="#fn-1" data-footnote-ref="1" aria-label="Footnote 1">1</a></sup>');
    expect(prose).toContain('data-footnote-ref="pop"');
    expect(table).toContain('2.1M<sup class="footnote-ref"><a href="#fn-pop" data-footnote-ref="pop"');
    expect(list).toContain('data-footnote-ref="1"');
    expect(notes).toContain('<div class="footnote" dir="auto" data-footnote="1" tabindex="-1"><span class="footnote-label">1</span>');
    expect(notes).toContain('Encyclopaedia, &quot;Paris&quot;. <a href="#fnref-1"');
    expect(notes).toContain('<a href="#fnref-pop" class="footnote-back" data-footnote-back="pop" aria-label="Back to reference pop">');
    for (const html of [prose, table, list, notes]) expect(html).not.toContain('[^');
  });

  it('gives nothing an id: two answers in a chat may both have a note 1', () => {
    expect(drawn(ANSWER).join('')).not.toMatch(/\sid=/);
    expect(markdownToHtml(ANSWER)).not.toMatch(/\sid=/);
  });

  it('a reference streamed before its note reads as written, its table and list still drawn row by row, and links once the note has come', () => {
    let split: SplitState | undefined;
    let sawPlain = false;
    for (let at = 1; at <= ANSWER.length; at++) {
      const text = ANSWER.slice(0, at);
      split = splitGrowing(split, text);
      const { chunks } = split;
      const refs = answerReferences(chunks, true, !text.endsWith('\n'));
      const tail = chunks[chunks.length - 1]!;
      // The answer's definitions hold note 1 once its line has come whole (to-html.ts answerReferences).
      const noted = /^\[\^1\]: .*\n/m.test(text);
      // The growing table and list are drawn in parts, whatever their references (table-view.ts, list-view.ts).
      if (tail.startsWith('| City') && tail.includes('\n| Paris |')) {
        const view = drawTable(null, tail, refs, false, asIs);
        expect(view, tail).not.toBeNull();
        expect(tableViewHtml(view!)).toContain('Paris');
      }
      if (tail.startsWith('- Founded')) expect(drawList(null, tail, refs, false, asIs), tail).not.toBeNull();
      const prose = markdownToHtml(chunks[0]!, refs);
      if (!noted && text.includes('France[^1]')) {
        sawPlain = true;
        expect(prose).toContain('France[^1]');
      }
      if (noted) expect(prose).toContain('data-footnote-ref="1"');
    }
    expect(sawPlain).toBe(true);
    const last = split!;
    const refs = answerReferences(last.chunks, true, false);
    expect(listViewHtml(drawList(null, '- Founded in the 3rd century BC[^1]', refs, false, asIs)!)).toContain('data-footnote-ref="1"');
  });

  it('leaves prose that only looks like a note as it is', () => {
    const html = markdownToHtml('Match ^[a-z]+ at the start, see [^missing], and a [link][^x].');
    expect(html).toContain('^[a-z]+');
    expect(html).toContain('[^missing]');
    expect(html).not.toContain('footnote');
  });
});
