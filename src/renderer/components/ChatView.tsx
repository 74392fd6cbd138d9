import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { ArrowDown, Flame } from 'lucide-react';
import { useStore } from '../store';
import { loadOlder } from '../store/open-conversation';
import type { Turn } from '../../shared/turn';
import { collectAnswers, type ToolAnswers } from './turn/tool-answers';
import { TurnView } from './turn/TurnView';
import { answerRuns, type RunInfo } from './turn/answer-runs';
import { useSearchHighlight } from './turn/use-search-highlight';
import { firstScreenTurns, useFirstScreen } from './turn/use-first-screen';
import { useReaderScroll } from './turn/use-reader-scroll';
import { usePrependAnchor } from './turn/use-prepend-anchor';

/** How far from the end still counts as "at the end" (a wheel notch less than this does not let go). */
const AT_END_PX = 48;
/** Turns mounted beyond the viewport, so a scroll finds them ready. */
const OVERSCAN_PX = 600;
/** A typical turn's height in px (a question, or a few paragraphs of answer). */
const TURN_HEIGHT_GUESS = 160;
/** The list while the first screenful's rows are shown: laid out in their place, not seen. */
const HIDDEN_LIST: CSSProperties = { position: 'absolute', inset: 0, visibility: 'hidden' };
/** The list's index of its first row when it opens: older turns paged in above take the indexes below it. */
const FIRST_ITEM_INDEX = 1_000_000;
/**
 * How long the list may keep its rows hidden while it finds its opening place. react-virtuoso hides them
 * (visibility: hidden) from its mount until it has scrolled to `initialTopMostItemIndex` and then seen the list
 * unchanged for 150 ms; it gives up after 1.2 s and leaves them hidden. Under an answer that keeps growing the list
 * never stays unchanged: a chat opened while it streamed showed nothing until the answer ended, or for good. An
 * open of a finished chat finds its place well within this (bench/long-chat), so it is never seen mid-way.
 */
const REVEAL_AFTER_MS = 250;

/**
 * The open branch as a virtualized list: only turns near the viewport are mounted, so a chat of thousands of
 * turns scrolls like a short one. While the reader is at the end it stays at the real end, including the answer's
 * footer that appears when it finishes (stats, Copy, Regenerate); scrolled up, it leaves them be and offers
 * "Jump to latest". A search hit opens at that message, highlighted.
 */
export function ChatView() {
  const turns = useStore((s) => s.turns);
  const activeId = useStore((s) => s.activeId);
  const focus = useStore((s) => s.focusTurn);
  const list = useRef<VirtuosoHandle>(null);
  const scroller = useRef<HTMLElement | null>(null);
  const { answers, shown } = useMemo(() => collectAnswers(turns), [turns]);
  const runs = useMemo(() => answerRuns(turns), [turns]);
  // A search hit or a turn a summary card links to (issue 21): the list opens there (it is virtualized) and marks it.
  const focusIndex = focus ? shown.findIndex((t) => t.id === focus.turnId) : -1;
  // Following the end: true until the reader scrolls away from it, true again when they come back or jump.
  const following = useRef(focusIndex < 0);
  const [atEnd, setAtEnd] = useState(true);
  const lastTop = useRef(0);
  const readerScrolling = useReaderScroll(scroller);
  usePrependAnchor(scroller);
  // A search hit opens a new list at its message; a summary card's link scrolls the list in place.
  const listKey = `${activeId ?? 'new'}|${focus !== null && focus.query !== null ? focus.turnId : ''}`;
  const empty = shown.length === 0;
  const partial = useStore((s) => s.partialView !== null && s.partialView === s.activeId);
  const first = useFirstScreen(listKey, shown.length, focusIndex >= 0, partial);
  const firstItemIndex = useFirstItemIndex(listKey, shown);
  // A chat getting its first answer (a new chat: the list mounts with the question and the answer starting) has
  // nothing to find: it opens at its top, which is its end, shown at once. A finished chat opens at its end.
  const fresh = useFreshList(listKey, shown);
  const revealed = useRevealed(listKey, first.list) && !first.rows;

  const toEnd = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);
  // Stable: the list re-attaches its scroller (a forced layout and a scroll-state update) whenever this changes,
  // which was once per streamed frame with an inline arrow.
  const scrollerRef = useCallback((el: HTMLElement | Window | null) => {
    scroller.current = el instanceof HTMLElement ? el : null;
  }, []);
  useEffect(() => {
    following.current = focusIndex < 0;
    setAtEnd(focusIndex < 0);
  }, [activeId, focus, focusIndex]);
  // Content that grows under a reader at the end (tokens, a footer, an image) keeps them at the end.
  useEffect(() => {
    const el = scroller.current;
    // The rows' box (its height is the list's): the scroller's first child is a viewport of the scroller's size.
    const content = el?.querySelector('[data-testid="virtuoso-item-list"]');
    if (!el || !content) return;
    let size = `${el.clientWidth}x${el.clientHeight}`;
    const observer = new ResizeObserver((entries) => {
      // The rows grew or shrank (per line of a streamed answer). The list keeps to its end by itself only while
      // its own at-the-end state holds, which a move the reader did not make can leave wrong.
      if (!entries.some((e) => e.target === el)) {
        if (following.current) toEnd();
        return;
      }
      const now = `${el.clientWidth}x${el.clientHeight}`;
      const resized = now !== size;
      size = now;
      // The window itself changed size: the list re-measures every message, so it is asked to show its end
      // again rather than trusting a scroll position worked out for the old sizes.
      if (resized && (following.current || el.scrollHeight - el.scrollTop - el.clientHeight <= AT_END_PX)) {
        list.current?.scrollToIndex({ index: 'LAST', align: 'end' });
        requestAnimationFrame(toEnd);
      } else if (following.current) toEnd();
    });
    observer.observe(content);
    observer.observe(el);
    return () => observer.disconnect();
    // Once per list (its content element lives as long as it), not per render: a new observer reports at once,
    // which forced a layout on every streamed token.
  }, [listKey, empty, first.list, toEnd]);
  // The end changed (a message, a token): a reader at the end stays there. Older turns paged in above (the reader
  // is at the top then; `following` may not have caught up with that yet) leave the end as it was.
  const lastTurn = useRef<Turn | undefined>(undefined);
  useEffect(() => {
    const last = turns.at(-1);
    if (following.current && last !== lastTurn.current) requestAnimationFrame(toEnd);
    lastTurn.current = last;
  }, [turns, toEnd]);
  // The searched word brought into view is a place the reader asked for: the list lets go of its end (an answer
  // taller than the window opens there), or it would be pulled back to it.
  const scrollBy = useCallback((px: number) => {
    const el = scroller.current;
    if (!el) return;
    following.current = false;
    el.scrollTop += px;
  }, []);
  useSearchHighlight(focus, turns, scrollBy);
  // A summary card's link (issue 21) scrolls the list there in place; a search hit opens the list at its message.
  const linked = focus !== null && focus.query === null ? focusIndex : -1;
  useEffect(() => {
    if (linked >= 0) list.current?.scrollToIndex({ index: linked, align: 'center' });
  }, [focus, linked]);

  if (empty) {
    return (
      <section className="chat empty" data-testid="chat">
        <div className="empty-hint">
          <span className="empty-mark">
            <Flame className="icon" aria-hidden />
          </span>
          <h1>What shall we work on?</h1>
          <p>Your messages go to the model you pick below, on your own machine.</p>
          <p className="shortcuts">
            {/* Each key with its words: a line that wraps breaks between them, not inside ("Ctrl / all" over "shortcuts"). */}
            <span>
              <kbd>Ctrl</kbd> <kbd>N</kbd> new chat
            </span>
            {' · '}
            <span>
              <kbd>Ctrl</kbd> <kbd>K</kbd> search
            </span>
            {' · '}
            <span>
              <kbd>/</kbd> write
            </span>
            {' · '}
            <span>
              <kbd>Ctrl</kbd> <kbd>/</kbd> all shortcuts
            </span>
          </p>
        </div>
      </section>
    );
  }
  return (
    <section className={revealed ? 'chat revealed' : 'chat'} data-testid="chat" aria-label="Conversation">
      {first.rows && <FirstScreenRows turns={shown.slice(-firstScreenTurns(shown, window.innerHeight))} answers={answers} runs={runs} />}
      {first.list && (
        <Virtuoso
          key={listKey}
          ref={list}
          scrollerRef={scrollerRef}
          className="turn-list"
          data={shown}
          firstItemIndex={firstItemIndex}
          // A long chat is held from its end (open-conversation.ts): its older turns come when the top is near.
          startReached={() => {
            if (!first.rows) void loadOlder();
          }}
          computeItemKey={(_i, t) => t.id}
          initialTopMostItemIndex={focusIndex >= 0 ? { index: focusIndex, align: 'center' } : fresh ? 0 : { index: 'LAST', align: 'end' }}
          followOutput={() => (following.current ? 'auto' : false)}
          atBottomThreshold={AT_END_PX}
          atBottomStateChange={(bottom) => {
            // The hidden list finding its place under the first screenful is not the reader scrolling.
            if (first.rows) return;
            setAtEnd(bottom);
            if (bottom) following.current = true;
          }}
          onScroll={(e) => {
            const el = e.currentTarget;
            // Content growing below never moves scrollTop back; a scroll up is the reader's, or the browser's when
            // content shrinks under the viewport or the list corrects a guessed height (use-reader-scroll.ts).
            const up = el.scrollTop < lastTop.current - 1;
            // Kept while the hidden list finds its place too: the reader's first scroll up is measured from there.
            lastTop.current = el.scrollTop;
            if (first.rows || !up || el.scrollHeight - el.scrollTop - el.clientHeight <= AT_END_PX) return;
            // Only the reader lets go of the end; a move they did not make is undone.
            if (readerScrolling()) following.current = false;
            else if (following.current) requestAnimationFrame(toEnd);
          }}
          increaseViewportBy={{ top: OVERSCAN_PX, bottom: OVERSCAN_PX }}
          // A first guess at a turn's height: the list skips its probe render of the first turn and mounts the
          // chat's last turns in its first pass (each turn is measured once mounted, as before).
          defaultItemHeight={TURN_HEIGHT_GUESS}
          itemContent={(_i, turn) => (
            <div className={focus?.turnId === turn.id && focus.query === null ? 'turn-row focused' : 'turn-row'}>
              <TurnView turn={turn} answers={answers} run={runs.get(turn.id)} hit={focus?.turnId === turn.id && focus.query !== null} />
            </div>
          )}
          components={LIST_COMPONENTS}
          {...(first.rows ? { style: HIDDEN_LIST, itemsRendered: (items: { data?: Turn }[]) => first.rendered(items.map((i) => (i.data ? shown.indexOf(i.data) : -1))) } : {})}
        />
      )}
      {!atEnd && !first.rows && (
        <button
          type="button"
          className="jump-to-latest small"
          data-testid="jump-to-latest"
          onClick={() => {
            following.current = true;
            setAtEnd(true);
            list.current?.scrollToIndex({ index: 'LAST', align: 'end' });
            requestAnimationFrame(toEnd);
          }}
        >
          <ArrowDown className="icon" aria-hidden />
          Jump to latest
        </button>
      )}
    </section>
  );
}

/**
 * Older turns paged in above those shown lower the list's first index by as many rows, so it keeps the reader's
 * place (react-virtuoso's prepend contract); anything else (a new list, another branch) keeps it.
 */
function useFirstItemIndex(listKey: string, shown: readonly Turn[]): number {
  const top = useRef({ key: listKey, firstId: shown[0]?.id, index: FIRST_ITEM_INDEX });
  const was = top.current;
  if (was.key !== listKey) top.current = { key: listKey, firstId: shown[0]?.id, index: FIRST_ITEM_INDEX };
  else if (shown[0]?.id !== was.firstId) {
    const moved = was.firstId === undefined ? -1 : shown.findIndex((t) => t.id === was.firstId);
    top.current = { key: listKey, firstId: shown[0]?.id, index: moved > 0 ? was.index - moved : was.index };
  }
  return top.current.index;
}

/** Turns a list may open with and still count as a chat's first exchange (the question, the answer starting). */
const FRESH_TURNS = 2;

/** Whether the list under `listKey` mounted with a chat's first exchange still under way (read once per list). */
function useFreshList(listKey: string, shown: readonly Turn[]): boolean {
  const isFresh = () => shown.length <= FRESH_TURNS && (shown.at(-1)?.role === 'user' || shown.some((t) => t.status === 'streaming'));
  const at = useRef<{ key: string; fresh: boolean } | null>(null);
  if (at.current?.key !== listKey) at.current = { key: listKey, fresh: isFresh() };
  return at.current.fresh;
}

/** True once the list under `listKey` has been mounted for REVEAL_AFTER_MS: its rows are shown from then on. */
function useRevealed(listKey: string, mounted: boolean): boolean {
  const [revealed, setRevealed] = useState<string | null>(null);
  useEffect(() => {
    if (!mounted) return;
    const timer = setTimeout(() => setRevealed(listKey), REVEAL_AFTER_MS);
    return () => clearTimeout(timer);
  }, [listKey, mounted]);
  return revealed === listKey;
}

function ListEnd() {
  return <div className="turn-list-end" />;
}
/** One object for the list's life: a new one each render is a changed prop the list re-renders its parts for. */
const LIST_COMPONENTS = { Footer: ListEnd };

/** A long chat's last turns as plain rows at the bottom, as the list shows them there (use-first-screen.ts). */
function FirstScreenRows({ turns, answers, runs }: { turns: Turn[]; answers: ToolAnswers; runs: Map<string, RunInfo> }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  });
  return (
    <div ref={box} className="turn-list" data-first-screen="" style={{ overflowY: 'scroll' }}>
      {turns.map((turn) => (
        <div key={turn.id} className="turn-row">
          <TurnView turn={turn} answers={answers} run={runs.get(turn.id)} />
        </div>
      ))}
      <ListEnd />
    </div>
  );
}

export type { RunInfo };
