import { useEffect, useRef } from 'react';
import type { Turn } from '../../../shared/turn';
import { CJK } from '../../../shared/cjk';
import { DATE_WORD, dateLiteral, dateLiteralRegExp, foldSeparators, typedDate } from '../../../shared/number-separators';
import type { FocusTurn } from '../../store';

/**
 * The words of a search as typed, as search found them (main's queryWords): quotes and FTS operator characters
 * dropped at a word's ends but kept inside it ("x*y" was marked as "xy", which no text holds), a word of one letter
 * kept ("C": found, and marked nowhere), and an emoji or other symbol kept when the query has no word (search
 * finds "🚀" as typed).
 */
export function searchTerms(query: string): string[] {
  const words = query
    .split(/\s+/)
    .map((w) => w.replace(/^["*()^]+|["*()^]+$/g, ''))
    .filter((w) => w !== '' && !['AND', 'OR', 'NOT', 'NEAR'].includes(w));
  const found = words.filter((w) => /[\p{L}\p{N}]/u.test(w));
  return found.length > 0 ? found : words.filter((w) => /[\p{So}\p{Extended_Pictographic}]/u.test(w));
}

/** A letter or digit: a one-letter word is marked where a word starts with it, as search found it, not inside words. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * One character as the search index folds it (unicode61, remove_diacritics 2): lower case, diacritics dropped, so
 * "cafe" marks "Café" in the chat as it found it. The scripts of CJK (kana, ideographs, Hangul, Thai…) keep their
 * marks and syllables, as search-cjk.ts folds them: NFD would take a Hangul syllable apart into letters.
 */
function foldChar(ch: string): string {
  const lower = ch.toLowerCase();
  return CJK.test(ch) ? lower : lower.normalize('NFD').replace(/\p{M}/gu, '');
}

/** `text` folded (foldChar), and for each of its code units the offset in `text` of the character it came from. */
export function foldText(text: string): { folded: string; from: number[] } {
  let folded = '';
  const from: number[] = [];
  let at = 0;
  for (const ch of text) {
    const f = foldChar(ch);
    folded += f;
    for (let k = 0; k < f.length; k++) from.push(at);
    at += ch.length;
  }
  from.push(at);
  return { folded, from };
}

/**
 * Where the words occur in `text`, as [start, end) offsets into it, case and diacritics aside: matched on the folded
 * text and mapped back, because folding changes lengths ("İ" lowers to two code units, a decomposed accent folds to
 * none), and offsets into the folded text marked the wrong letters.
 */
export function markOffsets(text: string, terms: readonly string[]): [number, number][] {
  const { folded: plain, from } = foldText(text);
  // A date is found however its numbers are separated ("2024-01-15" finds "2024/01/15"), as search finds it.
  const loose = foldSeparators(plain);
  const out: [number, number][] = [];
  const folded = terms.map((term) => foldText(term).folded).filter((t) => t !== '');
  for (let i = 0; i < folded.length; i++) {
    const exact = folded[i]!;
    // A whole date is found however the day is written ("15.01.2024", "15 January 2024" find "2024-01-15"): each
    // spelling marked, as search marks it; a date of several words ("Jan 15, 2024") as one.
    const date = typedDate(folded, i);
    if (date) {
      const dates = dateLiteral(date).flatMap((entry) => [...plain.matchAll(dateLiteralRegExp(entry))].map((m): [number, number] => [m.index, m.index + m[0].length]));
      // Spellings that overlap are one mark: a month's "2024-01" and its day's "2024-01-15" in "2024-01-15".
      const merged: [number, number][] = [];
      for (const [start, end] of dates.sort((a, b) => a[0] - b[0])) {
        const last = merged.at(-1);
        if (last && start <= last[1]) last[1] = Math.max(last[1], end);
        else merged.push([start, end]);
      }
      for (const [start, end] of merged) out.push([from[start]!, from[end]!]);
      i += date.words - 1;
      continue;
    }
    const [t, text] = DATE_WORD.test(exact) ? [foldSeparators(exact), loose] : [exact, plain];
    const wordStart = [...t].length === 1 && WORD_CHAR.test(t) && !CJK.test(t);
    for (let at = text.indexOf(t); at >= 0; at = text.indexOf(t, at + t.length)) {
      if (wordStart && at > 0 && WORD_CHAR.test(text[at - 1]!)) continue;
      out.push([from[at]!, from[at + t.length]!]);
    }
  }
  return out;
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
  // The hit whose folded reasoning was opened: once per hit, so the reader may fold it again.
  const unfolded = useRef<FocusTurn | null>(null);
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
    const terms = searchTerms(focus.query);
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
        for (const [start, end] of markOffsets(node.textContent ?? '', terms)) {
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, end);
          ranges.push(range);
        }
      }
      // Found in the reasoning only (search says "in reasoning"): folded away, its marks showed nothing.
      const folded = (r: Range) => r.startContainer.parentElement?.closest('details:not([open])');
      const first = ranges[0];
      if (first && unfolded.current !== focus && ranges.every(folded)) {
        unfolded.current = focus;
        (folded(first) as HTMLDetailsElement).open = true;
      }
      registry.set('search-hit', new HighlightClass(...ranges));
      el.setAttribute('data-search-marks', String(ranges.length));
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
