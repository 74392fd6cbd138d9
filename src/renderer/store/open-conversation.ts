/**
 * Opening a conversation: its last turns first, then the rest (a long chat's first screenful comes first), or the
 * whole branch at a search hit; it brings back the model it last answered with.
 */
import { firebrand } from '../firebrand';
import { fail, NO_CONVERSATION_SETTINGS, refreshContextChoice, useStore, type AppState } from '.';

// Looked up when called: this module and the store's index import each other.
const get = () => useStore.getState();
const set = (patch: Partial<AppState>) => useStore.setState(patch);

/** A message to show: a search hit (its words highlighted), or a turn a summary card links to (no query). */
export interface FocusTurn {
  turnId: string;
  query: string | null;
}

/** Turns asked for first when a chat opens: its first screenful, shown before the rest arrives (bench/long-chat). */
const FIRST_TURNS = 12;

export async function openConversation(conversationId: string, focus?: FocusTurn): Promise<void> {
  try {
    const api = firebrand();
    const [opened, conversationSettings] = await Promise.all([
      // A search hit may be anywhere in the chat: the whole branch at once.
      api.conversations.open(focus ? { conversationId } : { conversationId, tail: FIRST_TURNS }),
      api.conversations.getSettings({ conversationId }).catch(() => NO_CONVERSATION_SETTINGS),
    ]);
    let view = opened;
    // A hit on another branch: that branch is the one shown (and kept, like choosing it with < >).
    if (focus && !view.turns.some((t) => t.id === focus.turnId)) view = await api.conversations.switchBranch({ turnId: focus.turnId }).catch(() => view);
    // The conversation brings back the model it last answered with, where that model is still offered.
    const lastModel = view.turns.findLast((t) => t.role === 'assistant' && t.model)?.model;
    const offered = lastModel !== undefined && (get().models.some((m) => m.name === lastModel) || get().aliases.some((a) => a.name === lastModel));
    const modelChanged = offered && lastModel !== get().selectedModel;
    set({
      activeId: conversationId,
      turns: view.turns,
      siblings: view.siblings,
      conversationSettings,
      notice: null,
      focusTurn: focus && view.turns.some((t) => t.id === focus.turnId) ? focus : null,
      partialView: view.partial ? conversationId : null,
      ...(modelChanged ? { selectedModel: lastModel } : {}),
    });
    if (modelChanged) void refreshContextChoice();
    if (view.partial) await openRest(conversationId);
  } catch (err) {
    if (get().partialView === conversationId) set({ partialView: null });
    fail(err, () => void openConversation(conversationId, focus));
  }
}

/** The rest of a chat opened with its last turns only; what streamed into those meanwhile is kept. */
async function openRest(conversationId: string): Promise<void> {
  const whole = await firebrand().conversations.open({ conversationId });
  if (get().activeId !== conversationId || get().partialView !== conversationId) return;
  const live = new Map(get().turns.map((t) => [t.id, t]));
  const turns = whole.turns.map((t) => live.get(t.id) ?? t);
  // Turns added here since (a message sent at once) follow the branch as read.
  for (const t of get().turns) if (!whole.turns.some((w) => w.id === t.id)) turns.push(t);
  set({ turns, siblings: { ...whole.siblings, ...get().siblings }, partialView: null });
}

/** Opens a conversation at a search hit. */
export function openConversationAt(conversationId: string, focus: FocusTurn): Promise<void> {
  return openConversation(conversationId, focus);
}

/** Re-reads the switcher data once nothing streams (re-reading turns mid-stream would race the live parts). */
export async function refreshSiblings(): Promise<void> {
  const id = get().activeId;
  if (!id || get().turns.some((t) => t.status === 'streaming')) return;
  try {
    const view = await firebrand().conversations.open({ conversationId: id });
    if (get().activeId === id) set({ siblings: view.siblings });
  } catch {
    // The conversation may have just been deleted; the list refresh says so.
  }
}
