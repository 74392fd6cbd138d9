/** Conversation list actions: rename, delete with an undo window, full-text search. */
import { CONVERSATION_TITLE_MAX_CHARS, FirebrandError } from '../../shared/ipc';
import { SEARCH_PAGE, SEARCH_QUERY_MAX_CHARS, type SearchReply, type SearchResult } from '../../shared/search-ipc';
import { firebrand } from '../firebrand';
import { fail, newChat, openConversation, refreshConversations, useStore, type AppState } from '.';
import { keptNewChatSettings } from './new-chat-settings';
import { errorMessage } from './errors';
import { INFO } from './notice';
import { noteNavigation } from './open-conversation';
import { followOpenChat } from './resync';
import { dropUnsavedChatSettings } from './unsaved-chat-settings';
import { forgetEditDraftsOf } from './edit-drafts';

// Looked up when called: the store's index loads this module (through open-conversation.ts) before it has the store.
const set = (patch: Partial<AppState>) => useStore.setState(patch);
const get = () => useStore.getState();

/**
 * How long deleted conversations can be brought back before main deletes them for good: counted from the last delete,
 * for every one still waiting (they share one Undo, Sidebar's toast).
 */
export const UNDO_WINDOW_MS = 5000;

/** Each delete waiting out the undo window, in the order deleted: the chat's `updatedAt` as listed when deleted. */
const pendingDeletes = new Map<string, { listed: number | undefined }>();
/** When the undo window ends: restarted by each delete, so a second one within it keeps the first's Undo too. */
let undoTimer: ReturnType<typeof setTimeout> | undefined;
/** The deleted conversation that was open: its undo opens it again if the new chat that replaced it is still shown. */
let deletedWhileOpen: string | null = null;

/**
 * Saves a chat's new title. Resolves null once saved, or why it was not (a full disk, the read-only start), in
 * words: the rename field stays open with what was typed and says so (ConversationItem.tsx). Before, the field
 * closed and the typed title was lost, with only a banner saying why.
 */
export async function renameConversation(conversationId: string, title: string): Promise<string | null> {
  const trimmed = clampChars(title.trim(), CONVERSATION_TITLE_MAX_CHARS);
  if (trimmed === '') return null;
  set({ conversations: get().conversations.map((c) => (c.id === conversationId ? { ...c, title: trimmed } : c)) });
  try {
    await firebrand().conversations.rename({ conversationId, title: trimmed });
    return null;
  } catch (err) {
    await refreshConversations();
    return errorMessage(err);
  }
}

/**
 * Hides the conversation now and deletes it in main once the undo window has passed. A delete within the window of
 * another restarts it for both: deleting a second chat replaced the toast, and the first one's Undo was lost while it
 * was still only hidden.
 */
export function deleteWithUndo(conversationId: string): void {
  if (get().activeId === conversationId) {
    newChat();
    deletedWhileOpen = conversationId;
  }
  // As listed when deleted: a message written in it after this, in another window, keeps it (main checks).
  const listed = get().conversations.find((c) => c.id === conversationId)?.updatedAt;
  set({ hiddenConversations: [...get().hiddenConversations, conversationId] });
  pendingDeletes.set(conversationId, { listed });
  clearTimeout(undoTimer);
  undoTimer = setTimeout(flushPendingDeletes, UNDO_WINDOW_MS);
}

/** Takes one delete back (its Undo, or the chat opened from a search hit or a link while it waits). */
export function undoDelete(conversationId: string): void {
  pendingDeletes.delete(conversationId);
  if (pendingDeletes.size === 0) clearTimeout(undoTimer);
  set({ hiddenConversations: get().hiddenConversations.filter((id) => id !== conversationId) });
  // Undo puts back what the delete took away, the chat on screen too (turns audit #4), unless another one is open now.
  if (deletedWhileOpen === conversationId && get().activeId === null) void openConversation(conversationId);
  if (deletedWhileOpen === conversationId) deletedWhileOpen = null;
}

/** Whether `conversationId` is still waiting out the undo window (not yet on its way to main). */
export function deleteWaiting(conversationId: string): boolean {
  return pendingDeletes.has(conversationId);
}

/** The toast's Undo: takes back every delete still waiting, and returns them in the order they were deleted. */
export function undoPendingDeletes(): string[] {
  const ids = [...pendingDeletes.keys()];
  ids.forEach(undoDelete);
  return ids;
}

async function commitDelete(conversationId: string, listed: number | undefined): Promise<void> {
  pendingDeletes.delete(conversationId);
  if (deletedWhileOpen === conversationId) deletedWhileOpen = null;
  let gone = false;
  try {
    const { writtenSince } = await firebrand().conversations.delete({ conversationId, ...(listed !== undefined ? { keepIfWrittenAfter: listed } : {}) });
    if (writtenSince) {
      const title = get().conversations.find((c) => c.id === conversationId)?.title;
      set({
        hiddenConversations: get().hiddenConversations.filter((id) => id !== conversationId),
        notice: {
          message: `${title ? `“${title}”` : 'The chat'} was not deleted: a message was written in it in another window or tab after you deleted it. Delete it again if it should go.`,
          action: INFO,
        },
      });
      return;
    }
    gone = true;
    // Its chat settings typed and not saved go with it (they are kept across reloads, unsaved-chat-settings.ts), and
    // the edits of its messages kept (edit-drafts.ts): nothing would open them again. Not while its Undo is offered.
    dropUnsavedChatSettings(conversationId);
    forgetEditDraftsOf(conversationId);
  } catch (err) {
    fail(err, () => void commitDelete(conversationId, listed));
  }
  set({
    hiddenConversations: get().hiddenConversations.filter((id) => id !== conversationId),
    ...(gone ? { deletedConversations: [...get().deletedConversations, conversationId] } : {}),
  });
}

/**
 * The search hits to offer: none in a conversation waiting out its undo window, nor in one deleted since the search
 * listed it (a search made during the window showed it again once the window ended, and opening it failed).
 */
export function offeredHits(found: SearchResult[], state: Pick<AppState, 'hiddenConversations' | 'deletedConversations'>): SearchResult[] {
  return found.filter((r) => !state.hiddenConversations.includes(r.conversationId) && !state.deletedConversations.includes(r.conversationId));
}

/**
 * Commits the deletes still waiting: when the undo window ends, and when the window closes, so a quick quit does not
 * resurrect them.
 */
export function flushPendingDeletes(): void {
  clearTimeout(undoTimer);
  for (const [id, { listed }] of pendingDeletes) void commitDelete(id, listed);
}

/**
 * Main changed `conversationId` (the list is read again): when it is the chat on screen and it is gone, deleted in
 * another window or tab, the screen says so (resilience audit R5). It went on showing the chat, and a message sent
 * there failed with "That conversation no longer exists." and a Retry that could only fail again. Now the screen is
 * a new chat with the draft still in the composer (sending it starts that chat), and a notice says what happened.
 */
export async function noticeDeletedElsewhere(conversationId: string | null): Promise<void> {
  if (conversationId === null || get().activeId !== conversationId) return;
  // Changed just now, it heads the list unless it is gone; only then is main asked (once per such event).
  if (get().conversations.some((c) => c.id === conversationId)) return void followOpenChat(conversationId);
  try {
    await firebrand().conversations.open({ conversationId, tail: 1 });
  } catch (err) {
    closeDeletedElsewhere(conversationId, err);
  }
}

/**
 * `err` came from reading the open chat `conversationId`: when main says it is gone (deleted in another window or
 * tab, this page told by an event or reading it again after its link came back), the screen becomes a new chat with
 * the draft kept, and a notice says what happened. Any other failure is left to its caller.
 */
export function closeDeletedElsewhere(conversationId: string, err: unknown): void {
  if (!(err instanceof FirebrandError) || err.code !== 'not-found' || get().activeId !== conversationId) return;
  // Not newChat(): that is navigation, which would file the draft under the chat that is gone.
  noteNavigation();
  set({
    activeId: null,
    activeTitle: null,
    turns: [],
    siblings: {},
    focusTurn: null,
    olderTurns: null,
    partialView: null,
    conversationSettings: keptNewChatSettings(),
    notice: {
      message: 'The chat you had open was deleted in another window or tab. What you were typing is still here: sending it starts a new chat.',
      action: INFO,
    },
  });
}

/** `limit`: how many messages found are listed (SEARCH_PAGE unless more were asked for). */
export async function searchConversations(query: string, limit = SEARCH_PAGE): Promise<SearchReply> {
  if (query.trim() === '') return { results: [] };
  try {
    // A pasted page: main reads only its first words anyway, and refuses more than this many characters.
    return await firebrand().conversations.search({ query: clampChars(query, SEARCH_QUERY_MAX_CHARS), limit });
  } catch (err) {
    fail(err);
    return { results: [] };
  }
}

/** The first `max` code points (what the payload schema's maxLength counts). */
function clampChars(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join('');
}
