/**
 * An answer's boxes that scroll sideways (a wide table, a code block's long lines, a wide formula) are reached with
 * Tab and scrolled with the arrow keys, as axe's scrollable-region-focusable asks: a keyboard user could not see the
 * rest of them. Only those that overflow now become Tab stops (a short code block or a narrow table adds none), with a
 * name that says what they are. They are looked at again when the answer's size changes (a new line, a narrower
 * window) and, once it is finished, when its content does (a chunk drawn anew: its attributes go with its old HTML).
 */
import { useEffect, useRef, type RefObject } from 'react';

/** What may scroll sideways in an answer (turns.css): tables, the code of code blocks, display formulas. */
const SCROLLERS = 'table, pre.code-block > code, .katex-display';
/** Set on a box made reachable here, so it is made unreachable again only by this. */
const MARK = 'data-scroller';

/** The name a scrolling box is read by when it takes the focus. */
function scrollerName(el: Element): string {
  if (el.tagName === 'TABLE') {
    const columns = [...el.querySelectorAll('thead th')].map((th) => th.textContent.trim()).filter((name) => name !== '');
    return columns.length > 0 ? `Table: ${columns.slice(0, 4).join(', ')}${columns.length > 4 ? ', …' : ''}` : 'Table';
  }
  if (el.tagName === 'CODE') {
    const language = el.parentElement?.querySelector('.code-head > span')?.textContent.trim() ?? '';
    return language !== '' && language !== 'text' ? `Code: ${language}` : 'Code';
  }
  return 'Formula';
}

/** Makes the boxes in `root` that overflow sideways reachable, and those that no longer do (and lack focus) not. */
export function markScrollers(root: HTMLElement): void {
  for (const el of root.querySelectorAll<HTMLElement>(SCROLLERS)) {
    const scrolls = el.scrollWidth > el.clientWidth;
    if (scrolls === el.hasAttribute(MARK)) continue;
    if (scrolls) {
      el.setAttribute(MARK, '');
      el.tabIndex = 0;
      // A table keeps its own role; code and a formula are named as a group (a name alone is not allowed on them).
      if (el.tagName !== 'TABLE') el.setAttribute('role', 'group');
      el.setAttribute('aria-label', scrollerName(el));
    } else if (el !== document.activeElement) {
      for (const name of [MARK, 'tabindex', 'role', 'aria-label']) el.removeAttribute(name);
    }
  }
}

/**
 * markScrollers on the answer in `root`, once a frame at most, whenever its size changes, and whenever its content
 * does while it is not `growing`: a streaming answer's content changes at every token, and looking at all its boxes
 * then cost frames (bench/smoothness); its size changes at each new line, and it is looked at once more when it ends.
 */
export function useReachableScrollers(root: RefObject<HTMLElement | null>, growing: boolean): void {
  const streaming = useRef(growing);
  const check = useRef<() => void>(() => {});
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    let frame = 0;
    check.current = () => {
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        markScrollers(el);
      });
    };
    const resized = new ResizeObserver(() => check.current());
    resized.observe(el);
    const changed = new MutationObserver(() => {
      if (!streaming.current) check.current();
    });
    changed.observe(el, { childList: true, subtree: true });
    return () => {
      cancelAnimationFrame(frame);
      resized.disconnect();
      changed.disconnect();
      check.current = () => {};
    };
  }, [root]);
  useEffect(() => {
    streaming.current = growing;
    if (!growing) check.current();
  }, [growing]);
}
