/**
 * A new chat's settings (the Chat settings popover before its first message). Main keeps them with the new chat's
 * draft (db/draft-store.ts, migration 0019), so a reload, a closed window and a quit bring them back with it. They
 * lived in the tab's sessionStorage: after a quit, or in a new tab, the draft came back without them and went out
 * with tools offered again (context audit #8); before that only in the page, and a reload sent the draft without its
 * system prompt (turns audit #7). Its first message takes them along; main drops them with the draft it was sent
 * from (chat:send `fromDraft`).
 *
 * The tab holds them between saves, as it holds the drafts (drafts.ts): main's are read at its start, with the
 * drafts, and another tab's later choice at the next start.
 */
import type { ConversationSettings } from '../../shared/ipc';
import { isBlankSettings, NO_CONVERSATION_SETTINGS } from '../../shared/conversation-settings';
import { firebrand } from '../firebrand';

export { isBlankSettings, NO_CONVERSATION_SETTINGS };

let kept: ConversationSettings = NO_CONVERSATION_SETTINGS;
/** Chosen (or taken by a first message) in this tab since it started: main's, if they come later, are older. */
let chosen = false;
/** Main did not get the latest choice (the link down a moment): asked again at the next save point. */
let unsaved = false;

/** The settings kept for the next new chat, or none set. */
export function keptNewChatSettings(): ConversationSettings {
  return kept;
}

/** Keeps (or, with blank settings, forgets) the settings of the new chat, here and in main. */
export function keepNewChatSettings(settings: ConversationSettings): void {
  kept = settings;
  chosen = true;
  saveKept();
}

function saveKept(): void {
  const settings = kept;
  unsaved = false;
  void firebrand()
    .drafts.saveNewChatSettings({ settings })
    .catch(() => {
      if (kept === settings) unsaved = true;
    });
}

/** Asks main again to keep the new chat's settings if its last save failed (drafts.ts calls this at each save point). */
export function retryNewChatSettings(): void {
  if (unsaved) saveKept();
}

/** Main's, read at the tab's start with the drafts; false when not taken: the user chose here meanwhile. */
export function adoptNewChatSettings(settings: ConversationSettings): boolean {
  if (chosen) return false;
  kept = settings;
  return true;
}

/** The first message took them along (main dropped them with its draft): the next new chat starts without them. */
export function newChatSettingsTaken(): void {
  kept = NO_CONVERSATION_SETTINGS;
  chosen = true;
  unsaved = false;
}

/** For tests: a new page's memory. */
export function resetNewChatSettings(): void {
  kept = NO_CONVERSATION_SETTINGS;
  chosen = false;
  unsaved = false;
}
