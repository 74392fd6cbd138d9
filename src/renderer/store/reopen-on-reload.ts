/**
 * A reload of the page (a browser's refresh in serve mode, Electron's reload) reopens the conversation that was
 * open: before, it landed on a new chat while the answer went on streaming in main (the chat audit's notes). The id
 * is kept in the tab's sessionStorage: per tab, gone with the tab, and only an id (no text, no token).
 */
import { firebrand } from '../firebrand';
import { openConversation, useStore } from '.';
import { draftTouched } from './drafts';
import { navigationCount } from './open-conversation';

const KEY = 'firebrand.open-conversation';

/** The conversation open before the reload, and the navigations at load: one since means the user chose. */
let before: string | null = null;
let atLoad = 0;

function stored(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null; // Storage refused (a sandboxed frame, a privacy setting): a reload starts a new chat, as before.
  }
}

function store(id: string | null): void {
  try {
    if (id === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, id);
  } catch {
    // As above.
  }
}

/** Reads the conversation open before this load, then keeps the open one's id for the next. */
export function keepOpenConversation(): void {
  before = stored();
  atLoad = navigationCount();
  useStore.subscribe((state, prev) => {
    if (state.activeId !== prev.activeId) store(state.activeId);
  });
}

/**
 * Opens the conversation open before the reload, once the first screen is in (the models: a conversation brings
 * back the model it answered with), unless the user opened one, started a new chat, sent a message or began typing
 * one meanwhile (the words would go from the screen with the new chat: a run of chat.e2e found the composer emptied
 * under a message typed while the page reopened the conversation).
 * One deleted since (in another tab) is not an error to show: the reload lands on a new chat.
 */
export async function reopenAfterReload(): Promise<void> {
  const id = before;
  before = null;
  const chosen = () => navigationCount() !== atLoad || useStore.getState().activeId !== null || draftTouched();
  if (id === null || chosen()) return;
  const exists = await firebrand().conversations.getSettings({ conversationId: id }).then(() => true, () => false);
  if (chosen()) return;
  if (exists) await openConversation(id);
  else store(null);
}
