/** A conversation's settings with nothing chosen, shared by the new chat's popover (renderer) and its draft (main). */
import type { ConversationSettings } from './ipc';

export const NO_CONVERSATION_SETTINGS: ConversationSettings = { systemPrompt: '', think: null, tools: true };

/** Nothing chosen: the other identity layers decide alone, and tools are offered. */
export function isBlankSettings(s: ConversationSettings): boolean {
  return s.systemPrompt.trim() === '' && s.think === null && s.tools;
}
