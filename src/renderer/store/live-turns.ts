/**
 * The streaming fast lane. A frame whose parts only grow a turn's text or reasoning (by far the most frames of
 * an answer) puts the grown turn here, and only the turn's own view re-renders (TurnView reads it through
 * `useLiveTurn`). Publishing it to the store's `turns` re-rendered everything that reads them — the list and its
 * measuring, the composer and its meter, the announcer — once per frame, and those frames were what made tokens
 * late (bench/latency: p99 several times the floor while p50 was fine). The store gets the grown turn anyway at
 * most PUBLISH_MS later, in a task of its own (store/index.ts), and at once when anything else happens (a new
 * block, a tool call, usage, the finish).
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { StreamPart } from '../../shared/parts';
import type { Turn } from '../../shared/turn';

/** How stale the store's copy of a streaming turn may get: the meter and the rest still move a few times a second. */
export const PUBLISH_MS = 250;

/**
 * A turn ahead of the store, with the store's copy it grew from: once the store holds another, that one wins.
 * `settled`: the store holds `turn` now; the entry only bridges a view that still has `base` from the store.
 */
interface Live {
  base: Turn;
  turn: Turn;
  settled: boolean;
}

const live = new Map<string, Live>();
const listeners = new Map<string, Set<() => void>>();
/** When each streaming turn was last published to the store. */
const published = new Map<string, number>();

function notify(turnId: string): void {
  for (const l of listeners.get(turnId) ?? []) l();
}

/** `stored` (the store's copy of a turn), or its streamed-ahead version while one grew from it. */
export function freshest(stored: Turn): Turn {
  const entry = live.get(stored.id);
  return entry && entry.base === stored ? entry.turn : stored;
}

/**
 * Whether a frame's parts, applied to `before` giving `after`, can go to the fast lane: only deltas of text or
 * reasoning that grew the last block, nothing else about the turn changed but its timing. Main's running count comes
 * in a `timing` part a few times a second (shared/turn-timing.ts): the turn's own view (its footer) shows it, and
 * the store gets it with the next publish, as it gets the text.
 */
export function growsOnly(before: Turn, after: Turn, parts: readonly StreamPart[]): boolean {
  if (parts.some((p) => p.type !== 'text-delta' && p.type !== 'reasoning-delta' && p.type !== 'timing')) return false;
  return after.status === before.status && after.blocks.length === before.blocks.length;
}

/**
 * Whether the store's copy of a turn in the fast lane is stale enough (PUBLISH_MS) to publish it. The first frame
 * of a stream starts its clock.
 */
export function publishDue(turnId: string, now: number): boolean {
  const last = published.get(turnId);
  if (last === undefined) {
    published.set(turnId, now);
    return false;
  }
  return now - last >= PUBLISH_MS;
}

/** Keeps `turn`, grown from the store's copy `base`, in the fast lane and re-renders its view. */
export function setLive(base: Turn, turn: Turn): void {
  live.set(turn.id, { base, turn, settled: false });
  notify(turn.id);
}

/**
 * The store now holds `turn` in place of `base` (published, saved or replaced): its view reads the store's copy
 * again. Call after the store is updated. A view can still be handed `base` for a render or two after the store
 * changed (react-virtuoso passes a row its data a pass later): for that view `turn` stands in for it, where
 * dropping the entry showed `base`, the text as it was up to 250 ms before (the answer shrank and grew back at
 * every publish, its newest blocks mounted again: bench/smoothness). `turn` null: the turn is gone from the store.
 * `now`: published mid-stream (the next frames may take the fast lane again); without it the turn's stream is over.
 */
export function clearLive(turnId: string, base: Turn | null, turn: Turn | null, now?: number): void {
  if (now === undefined) published.delete(turnId);
  else published.set(turnId, now);
  const had = live.has(turnId);
  if (base && turn && base !== turn) live.set(turnId, { base, turn, settled: true });
  else live.delete(turnId);
  if (had || live.has(turnId)) notify(turnId);
}

/** `turn`, or its streamed-ahead version while one is in the fast lane. */
export function useLiveTurn(turn: Turn): Turn {
  const id = turn.id;
  const subscribe = useCallback(
    (listener: () => void) => {
      let set = listeners.get(id);
      if (!set) listeners.set(id, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(id);
      };
    },
    [id],
  );
  const entry = useSyncExternalStore(subscribe, () => live.get(id));
  // The view has the store's copy now: the bridge is done with (only a settled one: a live entry holds parts the
  // store does not have yet).
  useEffect(() => {
    if (entry?.settled && entry.turn === turn && live.get(id) === entry) live.delete(id);
  }, [entry, turn, id]);
  return entry && entry.base === turn ? entry.turn : turn;
}
