/**
 * A long chat opens with its last screenful as plain rows before the virtualized list takes over (bench/long-
 * chat). The list finds its place in several passes (measure the viewport, guess, mount, measure the turns,
 * correct), each a frame or more, and nothing shows meanwhile; the last few turns laid out bottom-up show in the
 * first. The chat's turns may be only its last ones at first (`partial`: store/openConversation asks for those
 * first); the list mounts once all are there (it cannot take turns added above it) and the first screenful is
 * painted, hidden under the rows, and it is shown (the rows removed) once it has mounted the last turn and settled.
 */
import { useCallback, useEffect, useState } from 'react';
import type { Turn } from '../../../shared/turn';
import { FIRST_TURNS } from '../../store/open-conversation';

/** Chats shorter than this open straight into the list: its passes are quick, and a handover buys nothing. */
export const FIRST_SCREEN_MIN_TURNS = 40;
/** Most rows in the first screenful: the turns a chat's first answer from main holds. */
export const FIRST_SCREEN_TURNS = FIRST_TURNS;
/** Fewest rows: the last answer and the question it answers. */
const FIRST_SCREEN_MIN_ROWS = 2;
/**
 * The estimate of a turn's height errs short, so the rows chosen cover the window: more characters to a line than
 * the widest column holds, a line lower than the text's, and a block that is not text (a tool call, an image, a
 * reasoning summary) as one line.
 */
const CHARS_PER_LINE = 120;
const LINE_PX = 18;
const TURN_CHROME_PX = 24;

/**
 * How many of the last turns the first screenful shows: those whose estimated height covers `viewportPx`. Each
 * row costs its markdown and layout before the chat's first paint (a cold answer's markdown ~20-70 ms on the
 * 2-core machine, bench/long-chat), and rows above the window are not seen: a long answer fills the window
 * alone, so eight rows of them rendered three screens nobody saw.
 */
export function firstScreenTurns(turns: readonly Turn[], viewportPx: number): number {
  let px = 0;
  let rows = 0;
  for (let i = turns.length - 1; i >= 0 && rows < FIRST_SCREEN_TURNS; i--) {
    px += estimatedHeight(turns[i]!);
    rows++;
    if (px >= viewportPx && rows >= FIRST_SCREEN_MIN_ROWS) break;
  }
  return rows;
}

function estimatedHeight(turn: Turn): number {
  let lines = 0;
  for (const block of turn.blocks) {
    if (block.type !== 'text') {
      lines++;
      continue;
    }
    for (const line of block.text.split('\n')) lines += Math.max(1, Math.ceil(line.length / CHARS_PER_LINE));
  }
  return TURN_CHROME_PX + lines * LINE_PX;
}

/** The list is shown after this long even if it never said it had mounted the last turn. */
const HANDOVER_BACKSTOP_MS = 1500;

export interface FirstScreen {
  /** Show the plain rows (the list is not ready yet). */
  rows: boolean;
  /** Mount the list (hidden while `rows`). */
  list: boolean;
  /** For the list's `itemsRendered`: the indexes it mounted. */
  rendered(indexes: number[]): void;
}

export function useFirstScreen(listKey: string, count: number, atFocus: boolean, partial: boolean): FirstScreen {
  // Decided when a chat opens: a chat that grows past the threshold while open keeps its list.
  const wanted = (partial || count >= FIRST_SCREEN_MIN_TURNS) && !atFocus;
  const [plan, setPlan] = useState<{ key: string; first: boolean }>({ key: listKey, first: wanted });
  const current = plan.key === listKey ? plan : { key: listKey, first: wanted };
  if (current !== plan) setPlan(current);
  const [mounted, setMounted] = useState<string | null>(null);
  const [ready, setReady] = useState<string | null>(null);
  const list = !partial && (!current.first || mounted === listKey || ready === listKey);
  const rows = current.first && !(list && ready === listKey);

  useEffect(() => {
    if (!current.first) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the paint of the rows: a timer from a frame callback runs once that frame is out.
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setMounted(listKey), 0)));
    const backstop = setTimeout(() => setReady(listKey), HANDOVER_BACKSTOP_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      clearTimeout(backstop);
    };
  }, [listKey, current.first]);

  const rendered = useCallback(
    (indexes: number[]) => {
      if (!indexes.includes(count - 1)) return;
      // One more frame: the list corrects its scroll position right after it mounts.
      requestAnimationFrame(() => requestAnimationFrame(() => setReady(listKey)));
    },
    [count, listKey],
  );
  return { rows, list, rendered };
}
