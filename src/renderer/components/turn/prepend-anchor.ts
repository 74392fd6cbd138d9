/**
 * Older turns paged in above the reader keep the row they were looking at where it was.
 *
 * react-virtuoso shifts the list by a guessed height for the new rows (`firstItemIndex`), then corrects by their
 * measured height, but only when it measures them outside the two frames it spends applying the shift: measured
 * inside them, the difference is dropped for good and the reader's row jumps (by 264 px in long-chat.e2e, 1 run in
 * 3 on a loaded machine; react-virtuoso issues 947 and 1405). So the page notes where the first visible row was
 * the moment the older turns arrive, and once the list has stopped moving it scrolls the remainder back, if any.
 * It acts only on a list at rest and looks again after each move, so it never adds to a correction the list makes
 * itself; the reader's own input after the turns arrived ends it.
 */

/** The first row the reader saw when older turns arrived: its turn and its top, from the scroller's top. */
export interface Anchor {
  turnId: string;
  offset: number;
}

/** One frame's reading: the anchor row's offset from the scroller's top (null: not mounted) and the scroll. */
export interface AnchorSample {
  offset: number | null;
  scrollTop: number;
}

/** What the watcher has seen so far. */
export interface AnchorWatch {
  last: string;
  stableFrames: number;
}

/** Frames the list must keep still (no scroll, the row not moving) before its place is taken as settled. */
export const STILL_FRAMES = 3;

export type AnchorStep = { kind: 'wait' } | { kind: 'scroll'; by: number } | { kind: 'done' };

/** The decision for one frame: wait for the list to be still, then scroll the row back, or stop where it is. */
export function anchorStep(watch: AnchorWatch, anchor: Anchor, sample: AnchorSample): AnchorStep {
  if (sample.offset === null) {
    watch.last = '';
    watch.stableFrames = 0;
    return { kind: 'wait' };
  }
  const seen = `${sample.scrollTop}|${sample.offset}`;
  if (seen === watch.last) watch.stableFrames++;
  else {
    watch.last = seen;
    watch.stableFrames = 0;
  }
  if (watch.stableFrames < STILL_FRAMES) return { kind: 'wait' };
  const by = sample.offset - anchor.offset;
  if (Math.abs(by) < 1) return { kind: 'done' };
  watch.last = '';
  watch.stableFrames = 0;
  return { kind: 'scroll', by };
}

/** A turn's own element (a summary card's links to turns carry the attribute too). */
const TURN = 'article[data-testid="turn"]';

/** The first row whose bottom is below the scroller's top: what the reader sees at the top of the list. */
export function findAnchor(scroller: HTMLElement): Anchor | null {
  const top = scroller.getBoundingClientRect().top;
  for (const el of scroller.querySelectorAll<HTMLElement>(TURN)) {
    const box = el.getBoundingClientRect();
    if (box.bottom > top) return { turnId: el.dataset.turnId ?? '', offset: box.top - top };
  }
  return null;
}

export function sampleAnchor(scroller: HTMLElement, anchor: Anchor): AnchorSample {
  const el = scroller.querySelector<HTMLElement>(`${TURN}[data-turn-id="${CSS.escape(anchor.turnId)}"]`);
  return { offset: el ? el.getBoundingClientRect().top - scroller.getBoundingClientRect().top : null, scrollTop: scroller.scrollTop };
}
