/**
 * A new chat's settings (the Chat settings popover before its first message) are kept in the tab's sessionStorage,
 * as its draft is (drafts.ts): a reload or a look at another chat brought the draft back without them, and it was
 * then sent without the system prompt the user had set (turns audit #7). Its first message takes them along.
 */
import type { ConversationSettings } from '../../shared/ipc';
import { THINK_MODES, type ThinkMode } from '../../shared/connections';

const KEY = 'firebrand.new-chat-settings';

export const NO_CONVERSATION_SETTINGS: ConversationSettings = { systemPrompt: '', think: null, tools: true };

export function isBlankSettings(s: ConversationSettings): boolean {
  return s.systemPrompt.trim() === '' && s.think === null && s.tools;
}

/** The settings kept for the next new chat, or none set. */
export function keptNewChatSettings(): ConversationSettings {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (raw === null || typeof raw !== 'object') return NO_CONVERSATION_SETTINGS;
    const { systemPrompt, think, tools } = raw as Record<string, unknown>;
    return {
      systemPrompt: typeof systemPrompt === 'string' ? systemPrompt : '',
      think: THINK_MODES.find((m): m is ThinkMode => m === think) ?? null,
      tools: typeof tools === 'boolean' ? tools : true,
    };
  } catch {
    return NO_CONVERSATION_SETTINGS;
  }
}

/** Keeps (or, with blank settings, forgets) the settings of the new chat. */
export function keepNewChatSettings(settings: ConversationSettings): void {
  try {
    if (isBlankSettings(settings)) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Storage refused: they live as long as the page, as they did.
  }
}
