/**
 * Keeps the reader's row in place when older turns are paged in above it (prepend-anchor.ts says why the list
 * alone does not always).
 */
import { useEffect, type RefObject } from 'react';
import { onOlderTurns } from '../../store/open-conversation';
import { anchorStep, findAnchor, sampleAnchor } from './prepend-anchor';

/** A backstop: a list that never keeps still (the host far too busy to finish a layout) is left as it is. */
const MAX_FRAMES = 600;
/** Anything the reader does ends the watch: their scroll, a click (Jump to latest), a key. */
const READER_INPUT = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

export function usePrependAnchor(scroller: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    let stop = () => {};
    const unsubscribe = onOlderTurns(() => {
      stop();
      const el = scroller.current;
      const anchor = el ? findAnchor(el) : null;
      if (!anchor) return;
      const watch = { last: '', stableFrames: 0 };
      let frames = 0;
      let frame = 0;
      const ended = new AbortController();
      stop = () => {
        cancelAnimationFrame(frame);
        ended.abort();
      };
      for (const type of READER_INPUT) document.addEventListener(type, stop, { capture: true, passive: true, signal: ended.signal });
      const tick = () => {
        const now = scroller.current;
        if (!now || ++frames > MAX_FRAMES) return stop();
        const step = anchorStep(watch, anchor, sampleAnchor(now, anchor));
        if (step.kind === 'done') return stop();
        if (step.kind === 'scroll') now.scrollTop += step.by;
        frame = requestAnimationFrame(tick);
      };
      frame = requestAnimationFrame(tick);
    });
    return () => {
      unsubscribe();
      stop();
    };
  }, [scroller]);
}
