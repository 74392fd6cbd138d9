import { useEffect, useRef } from 'react';
import type { Turn } from '../../../shared/turn';
import { CJK } from '../../../shared/cjk';
import type { FocusTurn } from '../../store';

/**
 * The words of a search as typed: quotes and FTS operators dropped, each word at least two characters, or one
 * CJK character (a word in those scripts, found inside a sentence: the audit's files #7).
 */
export function searchTerms(query: string): string[] {
  return query
    .split(/\s+/)
    .map((w) => w.replace(/["*()^]/g, '').trim())
    .filter((w) => (w.length >= 2 || CJK.test(w)) && !['AND', 'OR', 'NOT', 'NEAR'].includes(w));
}

/** What the reader does to move the list themselves: from then on the hit is not brought back into view. */
const READER_INPUT = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/**
 * Marks the searched words inside the hit's message with the CSS Custom Highlight API: the text is not changed
 * (no markup is added to model output), and it works the same in markdown, plain text and code. The message
 * may mount a few frames after the list (virtualized), so the marks are applied once it is there, and again
 * whenever it renders anew (markdown or math arriving, the list mounting it again): ranges over the text it
 * replaced would mark nothing. The first mark is brought into the list's view, as the list opens at the message's
 * middle or end when it is taller than the screen (most answers, on a phone), until the reader moves the list.
 */
export function useSearchHighlight(focus: FocusTurn | null, turns: readonly Turn[], scrollBy: (px: number) => void): void {
  // Per hit, not per render: a chat streaming under the hit changes `turns` with every token.
  const readerMoved = useRef(false);
  useEffect(() => {
    readerMoved.current = false;
    const stop = new AbortController();
    for (const type of READER_INPUT) document.addEventListener(type, () => (readerMoved.current = true), { capture: true, passive: true, signal: stop.signal });
    return () => stop.abort();
  }, [focus]);
  useEffect(() => {
    const registry = (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS?.highlights;
    const HighlightClass = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
    if (!focus || focus.query === null || !registry || !HighlightClass) return;
    const terms = searchTerms(focus.query).map((t) => t.toLowerCase());
    let frame = 0;
    let tries = 0;
    const apply = () => {
      frame = 0;
      const el = document.querySelector(`[data-turn-id="${CSS.escape(focus.turnId)}"]`);
      if (!el) {
        if (tries++ < 120) frame = requestAnimationFrame(apply);
        return;
      }
      const ranges: Range[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = (node.textContent ?? '').toLowerCase();
        for (const term of terms) {
          for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + term.length)) {
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + term.length);
            ranges.push(range);
          }
        }
      }
      registry.set('search-hit', new HighlightClass(...ranges));
      el.setAttribute('data-search-marks', String(ranges.length));
      const first = ranges[0];
      if (first && !readerMoved.current) showMark(first, scrollBy);
    };
    const again = () => {
      if (!frame) frame = requestAnimationFrame(apply);
    };
    // Text replaced, or the list revealed (a class), in the chat: the marks are made again.
    const observer = new MutationObserver(again);
    const chat = document.querySelector('[data-testid="chat"]');
    if (chat) observer.observe(chat, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['class'] });
    apply();
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      registry.delete('search-hit');
    };
  }, [focus, turns, scrollBy]);
}

/** Scrolls the chat so a mark off its view sits a third of the way down it, once the list shows its rows. */
function showMark(mark: Range, scrollBy: (px: number) => void): void {
  const scroller = document.querySelector('[data-testid="chat"].revealed [data-virtuoso-scroller]');
  const box = mark.getBoundingClientRect();
  if (!scroller || box.height === 0) return;
  const view = scroller.getBoundingClientRect();
  if (box.top >= view.top && box.bottom <= view.bottom) return;
  scrollBy(box.top - (view.top + view.height / 3));
}
