import { useEffect } from 'react';
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

/**
 * Marks the searched words inside the hit's message with the CSS Custom Highlight API: the text is not changed
 * (no markup is added to model output), and it works the same in markdown, plain text and code. The message
 * may mount a few frames after the list (virtualized), so the marks are applied once it is there.
 */
export function useSearchHighlight(focus: FocusTurn | null, turns: readonly Turn[]): void {
  useEffect(() => {
    const registry = (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS?.highlights;
    const HighlightClass = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
    if (!focus || focus.query === null || !registry || !HighlightClass) return;
    const terms = searchTerms(focus.query).map((t) => t.toLowerCase());
    let frame = 0;
    let tries = 0;
    const apply = () => {
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
    };
    apply();
    return () => {
      cancelAnimationFrame(frame);
      registry.delete('search-hit');
    };
  }, [focus, turns]);
}
