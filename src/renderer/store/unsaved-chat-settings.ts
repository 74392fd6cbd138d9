/**
 * Chat settings typed in the popover (composer/ConversationSettings.tsx) and neither saved nor cancelled, by
 * conversation (null: the new chat), for the page's life. A new chat's go with it when its first message creates it,
 * at the point its saved settings do (new-chat-settings.ts `newChatSettingsTaken`): they are offered, still unsaved,
 * in the chat that was created, and the next new chat starts without them. They stayed with the new chat, so the
 * next one was offered what was typed for another.
 */
import type { ThinkMode } from '../../shared/models';

/** What the popover's fields hold. */
export interface UnsavedChatSettings {
  prompt: string;
  think: ThinkMode | '';
  tools: boolean;
}

const unsaved = new Map<string | null, UnsavedChatSettings>();
/** The conversation the new chat's last first message created: a popover still open for the new chat writes there. */
let startedAs: string | null = null;

export function unsavedChatSettings(conversationId: string | null): UnsavedChatSettings | undefined {
  return unsaved.get(conversationId);
}

export function keepUnsavedChatSettings(conversationId: string | null, fields: UnsavedChatSettings): void {
  unsaved.set(conversationId, fields);
}

export function dropUnsavedChatSettings(conversationId: string | null): void {
  unsaved.delete(conversationId);
}

/** The new chat's first message created `conversationId`: what was typed for the new chat is that chat's now. */
export function newChatStartedAs(conversationId: string): void {
  startedAs = conversationId;
  const kept = unsaved.get(null);
  unsaved.delete(null);
  if (kept) unsaved.set(conversationId, kept);
}

/**
 * The conversation the new chat's first message created, if that happened since the last call, and forgets it: the
 * popover, still open for the new chat as that chat opens, keeps what was typed there (asked at each chat opened).
 */
export function takeNewChatStart(): string | null {
  const id = startedAs;
  startedAs = null;
  return id;
}

/** For tests: a new page's memory. */
export function resetUnsavedChatSettings(): void {
  unsaved.clear();
  startedAs = null;
}
