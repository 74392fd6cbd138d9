/**
 * Whether the reader is moving the list themselves: a wheel or touch in it, a drag of its scrollbar, focus moving
 * into it (the browser scrolls to what gets focus), or a navigation key outside a text field. The chat lets go of
 * the end only for that. A scroll up alone is not enough: the browser moves the list up itself when the content
 * shrinks under the viewport (an answer's thinking folds away, the list re-measures a turn it had guessed the
 * height of) and those scroll events look just like a reader's. Taking one for the reader left a chat at its top,
 * the new answer below the window, with "Jump to latest" showing (security.e2e, 2 runs in 26 on a loaded machine).
 */
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { isTyping } from '../../hooks/use-shortcuts';

/** A scroll this soon after the reader's input is theirs: smooth scrolling from a wheel or a key lasts ~300 ms. */
const INTENT_MS = 1000;
const NAVIGATION_KEYS = new Set(['PageUp', 'PageDown', 'ArrowUp', 'ArrowDown', 'Home', 'End', ' ']);
/** A wheel's line, as Chromium scrolls one (deltaMode 1). */
const LINE_PX = 40;

/**
 * `upIntent`: told, as the reader's wheel or key asks for it, how far up they want the list to go (px; Infinity for
 * Home), before the browser has scrolled at all. The scroll itself comes later: a smooth scroll takes frames, and on
 * a busy machine its events came more than a second after the wheel, when content resized meanwhile had pulled the
 * list back to its end (answers.e2e, once under load: the reader's scroll up was undone).
 */
export function useReaderScroll(scroller: RefObject<HTMLElement | null>, upIntent?: (px: number) => void): () => boolean {
  const lastInput = useRef(Number.NEGATIVE_INFINITY);
  const dragging = useRef(false);
  const intent = useRef(upIntent);
  intent.current = upIntent;
  useEffect(() => {
    const inList = (target: EventTarget | null) => target instanceof Node && scroller.current?.contains(target) === true;
    const now = () => (lastInput.current = performance.now());
    const onInputInList = (e: Event) => {
      if (inList(e.target)) now();
    };
    const onWheel = (e: WheelEvent) => {
      if (!inList(e.target)) return;
      now();
      // Ctrl+wheel zooms; a box inside the list that can still scroll up (a long code block, a tool's arguments)
      // takes the wheel itself, and the list stays where it is.
      if (e.deltaY >= 0 || e.ctrlKey || innerScrollsUp(e.target, scroller.current)) return;
      const unit = e.deltaMode === WheelEvent.DOM_DELTA_LINE ? LINE_PX : e.deltaMode === WheelEvent.DOM_DELTA_PAGE ? (scroller.current?.clientHeight ?? 0) : 1;
      intent.current?.(-e.deltaY * unit);
    };
    const onKey = (e: KeyboardEvent) => {
      if (!NAVIGATION_KEYS.has(e.key) || isTyping(e.target)) return;
      now();
      // Only keys the list itself takes (the focus in it): elsewhere they scroll what has the focus.
      const el = scroller.current;
      if (!el || !inList(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      const up = e.key === 'Home' ? Number.POSITIVE_INFINITY : e.key === 'PageUp' || (e.key === ' ' && e.shiftKey) ? el.clientHeight * 0.8 : e.key === 'ArrowUp' ? LINE_PX : 0;
      if (up > 0) intent.current?.(up);
    };
    // The scrollbar belongs to the scroller: a press there is the start of a drag.
    const onDown = (e: PointerEvent) => {
      if (inList(e.target)) dragging.current = true;
    };
    const onUp = () => {
      if (!dragging.current) return;
      dragging.current = false;
      now();
    };
    // One signal removes every listener when the list goes.
    const stop = new AbortController();
    const opts = { capture: true, passive: true, signal: stop.signal } as const;
    document.addEventListener('wheel', onWheel, opts);
    document.addEventListener('touchmove', onInputInList, opts);
    document.addEventListener('focusin', onInputInList, opts);
    document.addEventListener('keydown', onKey, opts);
    document.addEventListener('pointerdown', onDown, opts);
    window.addEventListener('pointerup', onUp, opts);
    window.addEventListener('pointercancel', onUp, opts);
    return () => stop.abort();
  }, [scroller]);
  return useCallback(() => dragging.current || performance.now() - lastInput.current < INTENT_MS, []);
}

/** Whether a box between the target and the list can scroll up itself, and so takes a wheel up before the list. */
function innerScrollsUp(target: EventTarget | null, list: HTMLElement | null): boolean {
  for (let el = target instanceof Element ? target : null; el && el !== list; el = el.parentElement) {
    if (el.scrollTop > 0 && el.scrollHeight > el.clientHeight) {
      const overflow = getComputedStyle(el).overflowY;
      if (overflow === 'auto' || overflow === 'scroll') return true;
    }
  }
  return false;
}
