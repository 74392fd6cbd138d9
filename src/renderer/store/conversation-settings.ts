/**
 * The conversation settings popover's actions: an open conversation's settings are saved in main at once; a new
 * chat's wait in the store and ride along with its first message (`chat:send` `conversationSettings`).
 */
import type { ConversationSettings } from '../../shared/ipc';
import { firebrand } from '../firebrand';
import { fail, useStore } from '.';
import { keepNewChatSettings } from './new-chat-settings';

/** Saves `next` for `conversationId` (null: the new chat on screen, whose first message takes them along). */
export async function saveConversationSettings(conversationId: string | null, next: ConversationSettings): Promise<boolean> {
  if (conversationId === null) {
    // Kept for the new chat only while it is the one on screen; main keeps them with its draft (new-chat-settings.ts).
    if (useStore.getState().activeId === null) {
      useStore.setState({ conversationSettings: next });
      keepNewChatSettings(next);
    }
    return true;
  }
  try {
    const saved = await firebrand().conversations.updateSettings({ conversationId, ...next });
    if (useStore.getState().activeId === conversationId) useStore.setState({ conversationSettings: saved, notice: null });
    return true;
  } catch (err) {
    fail(err, () => void saveConversationSettings(conversationId, next));
    return false;
  }
}
