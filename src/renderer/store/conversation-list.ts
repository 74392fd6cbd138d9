/**
 * The conversation list, read from main a page at a time (issue 20). A history of thousands of conversations used
 * to come whole (500 of them, and no more) at start and at every change: all of them rendered before the composer
 * was ready, and the older ones could only be found by search. Now the first page comes at start, the next as the
 * reader scrolls to the end of the list, and a change reads again only as much as is shown.
 *
 * What is held is always the start of the list as main orders it (most recently updated first), so the next page
 * starts after the last conversation held.
 */
import { CONVERSATION_PAGE_DEFAULT, CONVERSATION_PAGE_MAX, type ConversationSummary } from '../../shared/ipc';
import { firebrand } from '../firebrand';
import { fail, useStore, type AppState } from '.';

// Looked up when called: this module and the store's index import each other.
const get = () => useStore.getState();
const set = (patch: Partial<AppState>) => useStore.setState(patch);

/** Bumped by every refresh: an answer to an older one, or a page asked before it, is not shown over it. */
let generation = 0;
let loadingMore = false;
/** How many a refresh reads at least: as far as a chat opened far down the list (an imported old one) is listed. */
let reach = 0;

/**
 * Reads the list again as far as it is held (at least its first page), after a conversation changed: one that
 * was updated comes first, a new one appears, a deleted one goes. `asked`: the first page asked for already.
 */
export async function refreshConversations(asked?: Promise<ConversationSummary[]>): Promise<void> {
  const mine = ++generation;
  const limit = Math.min(CONVERSATION_PAGE_MAX, Math.max(CONVERSATION_PAGE_DEFAULT, get().conversations.length, reach));
  try {
    const page = await (asked ?? firebrand().conversations.list({ limit }));
    if (mine !== generation) return;
    set({ conversations: page, conversationsEnd: page.length < limit });
  } catch (err) {
    fail(err, () => void refreshConversations());
  }
}

/**
 * Reads the list as far as `count` conversations, and no less from then on (a refresh after a change reads as
 * far as is held): an imported old chat is listed by its own last message, maybe past the first page, and the
 * list shows it open there (export audit #1: it opened, and the list neither showed nor marked it).
 */
export function reachConversations(count: number): Promise<void> {
  reach = Math.max(reach, Math.min(CONVERSATION_PAGE_MAX, count));
  return refreshConversations();
}

/** Reads the page after the last conversation held, unless the end is held or a page is on its way. */
export async function loadMoreConversations(): Promise<void> {
  const { conversations, conversationsEnd } = get();
  const last = conversations.at(-1);
  if (conversationsEnd || !last || loadingMore) return;
  loadingMore = true;
  const mine = generation;
  try {
    const page = await firebrand().conversations.list({ before: { updatedAt: last.updatedAt, id: last.id }, limit: CONVERSATION_PAGE_DEFAULT });
    // A refresh meanwhile replaced the list: the page may not follow it any more (the list asks again).
    if (mine !== generation || get().conversations.at(-1) !== last) return;
    set({ conversations: [...get().conversations, ...page], conversationsEnd: page.length < CONVERSATION_PAGE_DEFAULT });
  } catch (err) {
    fail(err, () => void loadMoreConversations());
  } finally {
    loadingMore = false;
  }
}
