/**
 * Opening a conversation: its last turns first, then a window of its latest turns (a long chat's first screenful
 * comes first), or the whole branch at a search hit; it brings back the model it last answered with. A long chat
 * is not held whole: older turns are paged in from main as the reader scrolls up (bench/long-chat: the heap).
 */
import type { ConversationView } from '../../shared/ipc';
import type { Turn } from '../../shared/turn';
import type { Alias } from '../../shared/models';
import { aliasOfRef, answeredRef, refLabel } from '../../shared/model-ref';
import { missingModel } from '../components/composer/picker-groups';
import { firebrand } from '../firebrand';
import { fail, focusTurn, NO_CONVERSATION_SETTINGS, refreshContextChoice, useStore, type AppState } from '.';
import { undoDelete } from './conversation-actions';
import { INFO } from './notice';
import { noteDraftAtNavigation, switchDraft } from './drafts';
import { holdStreamed } from './streamed-turns';
import { adoptRunningTools } from './tool-progress';

// Looked up when called: this module and the store's index import each other.
const get = () => useStore.getState();
const set = (patch: Partial<AppState>) => useStore.setState(patch);

/** A message to show: a search hit (its words highlighted), or a turn a summary card links to (no query). */
export interface FocusTurn {
  turnId: string;
  query: string | null;
}

/** Turns asked for first when a chat opens: its first screenful, shown before the rest arrives (bench/long-chat). */
export const FIRST_TURNS = 12;
/** Turns held once a chat is open: several screenfuls, so scrolling up finds them ready before more are asked. */
export const HELD_TURNS = 100;
/** Older turns asked for at once when the reader reaches the top of those held. */
const PAGE_TURNS = 60;

/** Navigations so far (a conversation opened, a new chat started): an open that a later one overtook is not shown. */
let navigations = 0;

/** Counts a navigation (and notes the draft it leaves, drafts.ts); returns its number. */
export function noteNavigation(): number {
  noteDraftAtNavigation();
  return ++navigations;
}

export function navigationCount(): number {
  return navigations;
}

export async function openConversation(conversationId: string, focus?: FocusTurn): Promise<void> {
  const navigation = noteNavigation();
  // Opening a conversation deleted in the list, still inside its undo window, takes the delete back as Undo does:
  // otherwise it went on being deleted while open, and the next message failed (the audit's files #5).
  if (get().hiddenConversations.includes(conversationId)) undoDelete(conversationId);
  try {
    const api = firebrand();
    const [opened, conversationSettings] = await Promise.all([
      // A search hit may be anywhere in the chat: the whole branch at once.
      api.conversations.open(focus ? { conversationId } : { conversationId, tail: FIRST_TURNS }),
      api.conversations.getSettings({ conversationId }).catch(() => NO_CONVERSATION_SETTINGS),
    ]);
    let view = opened;
    if (get().openFailed.includes(conversationId)) set({ openFailed: get().openFailed.filter((id) => id !== conversationId) });
    // A hit on another branch: that branch is the one shown (and kept, like choosing it with < >).
    if (focus && !view.turns.some((t) => t.id === focus.turnId)) view = await api.conversations.switchBranch({ turnId: focus.turnId }).catch(() => view);
    // The conversation brings back the model or alias it last answered with (an alias by its id: renamed since,
    // it is still the one), where that is still offered; where it is not, the user is told what answers next.
    const lastTurn = view.turns.findLast((t) => t.role === 'assistant' && t.model);
    // Decided only once the model list is here: before it (a chat opened as the app starts, on a slow server) nothing
    // is known offered or gone, and the chat is checked again as the list comes (checkWhenModelsCome).
    const listed = get().models.length > 0;
    const { bringBack, goneNotice } = listed ? modelOfChat(lastTurn) : NOTHING_TO_SAY;
    // At a search hit: the branch from the hit (or its latest turns) on, older ones paged in as for any long chat.
    const held = focus ? heldWindow(view.turns, conversationId, focus.turnId) : { turns: view.turns, olderTurns: null };
    // Another conversation or a new chat was chosen while this one was read (a reload's reopen, a quick second click).
    if (navigation !== navigations) return;
    switchDraft(get().activeId, conversationId);
    set({
      activeId: conversationId,
      activeTitle: view.conversation.title,
      ...held,
      siblings: view.siblings,
      conversationSettings,
      // Nothing failed: the next message simply goes elsewhere, so the notice only informs.
      notice: goneNotice === null ? null : { message: goneNotice, action: INFO },
      focusTurn: focus && view.turns.some((t) => t.id === focus.turnId) ? focus : null,
      partialView: view.partial ? conversationId : null,
      ...(bringBack !== null ? { selectedModel: bringBack } : {}),
    });
    if (lastTurn && !listed) checkWhenModelsCome(conversationId, navigation, lastTurn);
    // An answer still streaming came as far as it had streamed: its next parts follow on from there.
    holdStreamed(view.streamed);
    // A tool call running now shows so (with its progress and Stop), in a tab or a page that was not there as it began.
    adoptRunningTools(conversationId, view.toolsRunning);
    if (bringBack !== null) void refreshContextChoice();
    if (view.partial) {
      // Asked for once the first screenful is on screen: main reading and sending the rest (~60 kB for a long
      // chat) took CPU from the page's first render on a 2-core machine (bench/long-chat).
      await afterPaint();
      await openRest(conversationId);
    }
  } catch (err) {
    if (get().partialView === conversationId) set({ partialView: null });
    // The row says so too: the notice goes with the next one, and a row that read as before was clicked again and
    // again with no hint that it had failed.
    if (!get().openFailed.includes(conversationId)) set({ openFailed: [...get().openFailed, conversationId] });
    fail(err, () => void openConversation(conversationId, focus));
  }
}

const NOTHING_TO_SAY = { bringBack: null, goneNotice: null };

/**
 * What the open chat's last answer (`lastTurn`) says of the model its next message goes to, from the model list as
 * it is now: the model or alias to bring back (null: the one chosen already, or none offered), or the notice that
 * the one it answered with is not offered now.
 */
function modelOfChat(lastTurn: Turn | undefined): { bringBack: string | null; goneNotice: string | null } {
  const lastModel = lastTurn ? answeredRef(lastTurn, get().aliases, get().models) : undefined;
  const lastAlias = lastModel === undefined ? undefined : aliasOfRef(lastModel, get().aliases);
  const offered = lastModel !== undefined && (get().models.some((m) => m.name === lastModel) || (lastAlias !== undefined && offeredAlias(lastAlias)));
  const selectedNow = get().selectedModel;
  const goneNotice = lastTurn?.model && !offered && selectedNow
    ? `This chat was answered by ${lastAlias ? `the alias ${lastAlias.name}` : lastTurn.model}, which is not offered now${lastAlias ? ` (${unofferedReason(lastAlias)})` : ''}; your next message goes to ${refLabel(selectedNow, get().aliases)}.`
    : null;
  return { bringBack: offered && lastModel !== selectedNow ? lastModel : null, goneNotice };
}

/** The watch of a chat opened before the model list came (one at a time: the chat open now). */
let stopWatching: (() => void) | null = null;

/**
 * A chat opened before the model list came is checked once the list is here, as an open with the list would
 * have: its model brought back, or the notice that it is not offered now (before, it said nothing, and the next
 * message went to another model unannounced). Once only: a later list (a refresh, the server's models changed)
 * does not say it again, nor bring it back after the user dismissed it; and not at all once another chat or a new
 * one is chosen. A notice up meanwhile (a failure) is not replaced.
 */
function checkWhenModelsCome(conversationId: string, navigation: number, lastTurn: Turn): void {
  stopWatching?.();
  const still = () => navigation === navigations && get().activeId === conversationId;
  const stop = useStore.subscribe((s) => {
    if (still() && s.models.length === 0) return;
    stop();
    if (stopWatching === stop) stopWatching = null;
    if (!still()) return;
    // After the list's own choice of model (model-choice.ts sets both at once), not inside its update.
    queueMicrotask(() => {
      if (!still()) return;
      const { bringBack, goneNotice } = modelOfChat(lastTurn);
      if (bringBack !== null) {
        set({ selectedModel: bringBack });
        void refreshContextChoice();
      } else if (goneNotice !== null && get().notice === null) {
        set({ notice: { message: goneNotice, action: INFO } });
      }
    });
  });
  stopWatching = stop;
}

/** An alias can answer when its connection is the active one and its model is listed there (picker-groups). */
function offeredAlias(alias: Alias): boolean {
  return alias.connectionId === (get().settings?.activeConnectionId ?? 'ollama') && missingModel(alias, get().models) === undefined;
}

function unofferedReason(alias: Alias): string {
  if (alias.connectionId !== (get().settings?.activeConnectionId ?? 'ollama')) return 'its connection is not the active one';
  return `its model, ${alias.model}, is not on the server`;
}

/** Most afterPaint waits: a hidden window paints no frames. */
const PAINT_WAIT_MS = 100;

/** Resolves after the next frame is painted (a timer set from a frame callback runs once that frame is out). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, PAINT_WAIT_MS);
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

/** The window of a chat opened with its last turns only; what streamed into those meanwhile is kept. */
async function openRest(conversationId: string): Promise<void> {
  const held = await firebrand().conversations.open({ conversationId, tail: HELD_TURNS });
  if (get().activeId !== conversationId || get().partialView !== conversationId) return;
  set({ ...merged(held), partialView: null, olderTurns: held.partial ? conversationId : null });
}

/** `view`'s turns (the branch's latest) in place of those held, keeping what streamed or was sent meanwhile. */
function merged(view: ConversationView): Pick<AppState, 'turns' | 'siblings'> {
  const live = new Map(get().turns.map((t) => [t.id, t]));
  const turns = view.turns.map((t) => live.get(t.id) ?? t);
  const read = new Set(view.turns.map((t) => t.id));
  // Turns added here since (a message sent at once) follow the branch as read.
  for (const t of get().turns) if (!read.has(t.id)) turns.push(t);
  return { turns, siblings: { ...view.siblings, ...get().siblings } };
}

let paging: string | null = null;

const olderListeners = new Set<() => void>();

/** `listener` runs as older turns are about to go in above those shown (the page still shows the rows as they were). */
export function onOlderTurns(listener: () => void): () => void {
  olderListeners.add(listener);
  return () => olderListeners.delete(listener);
}

/** The reader reached the top of the turns held: the next older ones, from main, go above them. */
export async function loadOlder(): Promise<void> {
  const { activeId, olderTurns, turns } = get();
  const first = turns[0];
  if (!activeId || olderTurns !== activeId || !first || paging === first.id) return;
  paging = first.id;
  try {
    const page = await firebrand().conversations.open({ conversationId: activeId, tail: PAGE_TURNS, before: first.id });
    // Another chat or branch since: what was asked no longer goes above what is shown.
    if (get().activeId !== activeId || get().turns[0]?.id !== first.id) return;
    for (const listener of olderListeners) listener();
    set({ turns: [...page.turns, ...get().turns], siblings: { ...page.siblings, ...get().siblings }, olderTurns: page.partial ? activeId : null });
  } catch (err) {
    fail(err, () => void loadOlder());
  } finally {
    paging = null;
  }
}

/** A link to a turn of the open chat (a summary card's): turns not held yet are read first, then it is shown. */
export async function showTurn(turnId: string): Promise<void> {
  const id = get().activeId;
  if (id && get().olderTurns === id && !get().turns.some((t) => t.id === turnId)) {
    try {
      const whole = await firebrand().conversations.open({ conversationId: id });
      if (get().activeId !== id) return;
      set({ ...merged(whole), olderTurns: null });
    } catch (err) {
      return fail(err, () => void showTurn(turnId));
    }
  }
  focusTurn(turnId);
}

/** Turns kept above the one a window is opened at (a search hit, a sibling chosen): what led to it. */
const ABOVE_KEPT = 20;

/** A branch main sent whole (a search hit, a sibling chosen): its latest turns are held, from `keep` on at least. */
export function heldWindow(turns: Turn[], conversationId: string, keep: string): Pick<AppState, 'turns' | 'olderTurns'> {
  const at = turns.findIndex((t) => t.id === keep);
  const from = Math.max(0, Math.min(at < 0 ? Infinity : at - ABOVE_KEPT, turns.length - HELD_TURNS));
  return { turns: from > 0 ? turns.slice(from) : turns, olderTurns: from > 0 ? conversationId : null };
}

/** Opens a conversation at a search hit. */
export function openConversationAt(conversationId: string, focus: FocusTurn): Promise<void> {
  return openConversation(conversationId, focus);
}

/** Re-reads the switcher data once nothing streams (re-reading turns mid-stream would race the live parts). */
export async function refreshSiblings(): Promise<void> {
  const id = get().activeId;
  if (!id || get().turns.some((t) => t.status === 'streaming')) return;
  // The switcher data of the turns held: a window of a long chat asks for those only.
  const held = get().turns.length;
  const window = get().olderTurns === id && held > 0 && held <= 1000 ? { tail: held } : {};
  try {
    const view = await firebrand().conversations.open({ conversationId: id, ...window });
    if (get().activeId === id) set({ siblings: view.siblings });
  } catch {
    // The conversation may have just been deleted; the list refresh says so.
  }
}
