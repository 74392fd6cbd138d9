/**
 * The conversation settings popover's actions: an open conversation's settings are saved in main at once; a new
 * chat's wait in the store and ride along with its first message (`chat:send` `conversationSettings`).
 */
import type { ConversationSettings } from '../../shared/ipc';
import { firebrand } from '../firebrand';
import { useStore } from '.';

export async function saveConversationSettings(next: ConversationSettings): Promise<boolean> {
  const conversationId = useStore.getState().activeId;
  if (conversationId === null) {
    useStore.setState({ conversationSettings: next });
    return true;
  }
  try {
    const saved = await firebrand().conversations.updateSettings({ conversationId, ...next });
    if (useStore.getState().activeId === conversationId) useStore.setState({ conversationSettings: saved, notice: null });
    return true;
  } catch (err) {
    useStore.setState({ notice: err instanceof Error ? err.message : String(err) });
    return false;
  }
}
