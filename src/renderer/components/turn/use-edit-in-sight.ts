import { useEffect, type RefObject } from 'react';
import { countEditInSight } from '../../store/edits-in-sight';

/**
 * How much of an edit box must show for it to count as in sight: a line of its text, or all of a box shorter than
 * that. A sliver at the list's edge is not something the user sees as their edit.
 */
const SEEN_PX = 24;
/** Steps of the box's visible share at which the observer reports, so a box scrolled in by a few pixels is noticed. */
const STEPS = Array.from({ length: 21 }, (_, i) => i / 20);

/**
 * Reports while `box` (a message's open edit) is on screen (edits-in-sight.ts). The observer's root is the page: it
 * clips by the chat's scroller, so a box scrolled out of the list, or not mounted by the virtualized list, is out of
 * sight.
 */
export function useReportEditInSight(box: RefObject<HTMLElement | null>, turnId: string, open: boolean): void {
  useEffect(() => {
    const el = box.current;
    if (!open || !el) return;
    let seen = false;
    const set = (now: boolean) => {
      if (now === seen) return;
      seen = now;
      countEditInSight(turnId, now ? 1 : -1);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        const e = entries.at(-1);
        if (e) set(e.isIntersecting && e.intersectionRect.height >= Math.min(SEEN_PX, e.boundingClientRect.height));
      },
      { threshold: STEPS },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      set(false);
    };
  }, [box, turnId, open]);
}
