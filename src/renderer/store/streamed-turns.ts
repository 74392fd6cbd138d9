/**
 * Streamed turns in the store: main's parts of a streaming turn, buffered and applied once per animation frame
 * (a turn's growing text through the fast lane, ./live-turns.ts, published to the store now and then), and main's
 * saved turns, which replace what streamed.
 */
import type { FirebrandApi } from '../../shared/bridge';
import type { StreamPart } from '../../shared/parts';
import { applyParts } from '../../shared/reducer';
import type { Turn } from '../../shared/turn';
import { refreshContextChoice, refreshModels, useStore, type AppState } from '.';
import { clearLive, freshest, growsOnly, publishDue, PUBLISH_MS, setLive } from './live-turns';
import { refreshSiblings } from './open-conversation';
import { noteTurnPart } from './turn-timings';

// Looked up when called: this module and the store's index import each other.
const get = () => useStore.getState();
const set = (patch: Partial<AppState>) => useStore.setState(patch);

// Streamed parts: buffered, applied once per frame. Parts for a turn the view does not hold yet (they can beat
// the send result) wait in `early` until it arrives. `index`: the part's number in its turn's stream.
type Entry = { turnId: string; part: StreamPart; index: number };
let buffered: Entry[] = [];
let frame: number | null = null;
const early = new Map<string, Entry[]>();
/**
 * Saved turns that came while this page was sending and did not hold them: its own new answer can be saved before
 * the send's result says its id. Released when the send ends (releaseSavedAhead): the rest were other chats'
 * turns (another tab answering), read from main when those chats open, and kept here they only grew.
 */
const savedAhead = new Map<string, Turn>();
/**
 * For a streaming turn read from main mid-answer (a chat opened, a page back after its link dropped): how many of
 * its parts the store's copy holds. Parts numbered below are in it already and are skipped; without this, the
 * parts streamed around the read were lost or applied twice (resilience audit R8).
 */
const holds = new Map<string, number>();

function applyBuffered(): void {
  frame = null;
  const batch = buffered;
  buffered = [];
  let turns = get().turns;
  const index = new Map(turns.map((t, i) => [t.id, i]));
  // Group the frame's parts per turn so consecutive deltas fold into one update (applyParts).
  const perTurn = new Map<string, Entry[]>();
  for (const entry of batch) {
    const list = perTurn.get(entry.turnId);
    if (list) list.push(entry);
    else perTurn.set(entry.turnId, [entry]);
  }
  const now = performance.now();
  const published: { base: Turn; turn: Turn }[] = [];
  for (const [turnId, entries] of perTurn) {
    const i = index.get(turnId);
    if (i === undefined) {
      const list = early.get(turnId) ?? [];
      if (list.length < 100_000) list.push(...entries);
      early.set(turnId, list);
      continue;
    }
    const held = holds.get(turnId);
    const fresh = held === undefined ? entries : entries.filter((e) => e.index >= held);
    if (held !== undefined && fresh.length > 0) holds.set(turnId, fresh.at(-1)!.index + 1);
    if (fresh.length === 0) continue;
    const parts = fresh.map((e) => e.part);
    // Text that only grows goes to the turn's own view (live-turns.ts); the store gets it now and then.
    const stored = turns[i]!;
    const before = freshest(stored);
    const after = applyParts(before, parts);
    if (growsOnly(before, after, parts)) {
      setLive(stored, after);
      schedulePublish(turnId, now);
      continue;
    }
    if (published.length === 0) turns = turns.slice();
    turns[i] = after;
    published.push({ base: stored, turn: after });
  }
  publish(turns, published, now);
}

/** Puts `turns` in the store, where `published` are the turns that changed, and ends their fast lane's lead. */
function publish(turns: Turn[], published: readonly { base: Turn; turn: Turn }[], now: number): void {
  if (published.length === 0) return;
  set({ turns });
  for (const { base, turn } of published) clearLive(turn.id, base, turn, now);
}

/**
 * A streaming turn's store copy catches up with its view (live-turns.ts) in a task of its own, never inside a
 * frame: the publish re-renders everything that reads the turns (the list, the composer and its meter), and done
 * in the frame it made that frame's tokens later. In 3 interleaved pairs of bench/latency, the p99 at 100
 * tokens/s read 22.1-22.4 ms (1.13-1.16x its floor) against 22.7-24.3 (1.21-1.26x) with the publish in the frame.
 * - Once due (PUBLISH_MS since the last), right after the frame that painted the new text;
 * - and PUBLISH_MS after a frame that was not due, in case no frame comes (the stream paused: a slow prompt, a
 *   tool call, a server stalled): the meter then counts everything received, where it lagged until the next part.
 */
const unpublished = new Set<string>();
let afterFrame = false;
let trailing: ReturnType<typeof setTimeout> | null = null;

function schedulePublish(turnId: string, now: number): void {
  unpublished.add(turnId);
  if (publishDue(turnId, now)) {
    if (afterFrame) return;
    afterFrame = true;
    // A task posted from a frame's callback runs after that frame is painted.
    setTimeout(() => {
      afterFrame = false;
      publishLive();
    }, 0);
  } else
    trailing ??= setTimeout(() => {
      trailing = null;
      publishLive();
    }, PUBLISH_MS);
}

function publishLive(): void {
  const ids = [...unpublished];
  unpublished.clear();
  let turns = get().turns;
  const published: { base: Turn; turn: Turn }[] = [];
  for (const id of ids) {
    const i = turns.findIndex((t) => t.id === id);
    if (i < 0) continue;
    // Published meanwhile (a frame with other parts, the saved turn): the store's copy is the view's.
    const stored = turns[i]!;
    const fresh = freshest(stored);
    if (fresh === stored) continue;
    if (published.length === 0) turns = turns.slice();
    turns[i] = fresh;
    published.push({ base: stored, turn: fresh });
  }
  publish(turns, published, performance.now());
}

/** A saved turn that came before the view held it (see connectStreamedTurns). */
export function savedEarly(turnId: string): Turn | undefined {
  return savedAhead.get(turnId);
}

/** The send is over and its own turns are taken: what else was saved meanwhile is not this view's to show. */
export function releaseSavedAhead(): void {
  savedAhead.clear();
}

/** Applies what came for a turn before the view held it: its saved version, or the parts buffered for it. */
export function flushPendingFor(turnId: string): void {
  const saved = savedAhead.get(turnId);
  if (saved) {
    savedAhead.delete(turnId);
    early.delete(turnId);
    let turns = get().turns.map((t) => (t.id === turnId ? saved : t));
    // A card main put above it meanwhile (an automatic summary, issue 21) goes in between.
    const card = saved.parentId !== null ? savedAhead.get(saved.parentId) : undefined;
    const at = turns.findIndex((t) => t.id === turnId);
    if (card && at >= 0 && !turns.some((t) => t.id === card.id)) {
      savedAhead.delete(card.id);
      turns = [...turns.slice(0, at), card, ...turns.slice(at)];
    }
    set({ turns });
    return;
  }
  const parts = early.get(turnId);
  if (!parts) return;
  early.delete(turnId);
  buffered.unshift(...parts);
  scheduleFrame();
}

/**
 * The store now holds turns as main read them (`streamed`: the parts each streaming one holds): parts numbered
 * below are skipped, and those that came for it before it was held are applied.
 */
export function holdStreamed(streamed: Record<string, number> | undefined): void {
  for (const [turnId, parts] of Object.entries(streamed ?? {})) {
    holds.set(turnId, parts);
    flushPendingFor(turnId);
  }
}

function scheduleFrame(): void {
  frame ??= requestAnimationFrame(applyBuffered);
}

/** Subscribes the store to main's streamed parts and saved turns. */
export function connectStreamedTurns(api: FirebrandApi): void {
  api.chat.onTurnParts(({ turnId, parts, from }) => {
    parts.forEach((part, k) => {
      noteTurnPart(turnId, part);
      buffered.push({ turnId, part, index: from + k });
    });
    scheduleFrame();
  });
  api.chat.onTurnSaved(({ turn }) => {
    // The saved turn is the truth; parts still buffered for it are already part of it.
    buffered = buffered.filter((b) => b.turnId !== turn.id);
    early.delete(turn.id);
    if (turn.status !== 'streaming') holds.delete(turn.id);
    const turns = get().turns;
    const i = turns.findIndex((t) => t.id === turn.id);
    const was = i >= 0 ? turns[i]! : null;
    // A card main put above a turn in view (a summary written on its own before an answer, issue 21).
    const above = i < 0 && turn.conversationId === get().activeId ? turns.findIndex((t) => t.parentId === turn.id) : -1;
    if (i >= 0) set({ turns: turns.map((t) => (t.id === turn.id ? turn : t)) });
    else if (above >= 0 && (above === 0 || turns[above - 1]?.id === turn.parentId)) set({ turns: [...turns.slice(0, above), turn, ...turns.slice(above)] });
    // A turn main created on its own (the next step of a tool loop, an approval card) extends the open branch.
    else if (turn.conversationId === get().activeId && turn.parentId !== null && turns.at(-1)?.id === turn.parentId && !get().sending) {
      set({ turns: [...turns, turn] });
      flushPendingFor(turn.id);
    } else if (get().sending) savedAhead.set(turn.id, turn);
    // The saved turn replaces what streamed ahead of the store (live-turns.ts).
    clearLive(turn.id, was, i >= 0 ? turn : null);
    if (i >= 0) void refreshSiblings();
    // An answer that ended may have taught the estimate (the server's count) or met a window other than the one
    // shown (a server restarted with another -c): ask main again, cheaply (issue 13).
    if (turn.conversationId === get().activeId && turn.status !== 'streaming' && (turn.role === 'assistant' || turn.source === 'context-refused')) {
      if (turn.source === 'context-refused' || turn.status === 'error') void refreshModels();
      else void refreshContextChoice();
    }
  });
}
