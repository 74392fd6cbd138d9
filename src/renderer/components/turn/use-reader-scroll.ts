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

export function useReaderScroll(scroller: RefObject<HTMLElement | null>): () => boolean {
  const lastInput = useRef(Number.NEGATIVE_INFINITY);
  const dragging = useRef(false);
  useEffect(() => {
    const inList = (target: EventTarget | null) => target instanceof Node && scroller.current?.contains(target) === true;
    const now = () => (lastInput.current = performance.now());
    const onInputInList = (e: Event) => {
      if (inList(e.target)) now();
    };
    const onKey = (e: KeyboardEvent) => {
      if (NAVIGATION_KEYS.has(e.key) && !isTyping(e.target)) now();
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
    document.addEventListener('wheel', onInputInList, opts);
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

