/**
 * Chat settings typed in the popover (composer/ConversationSettings.tsx) and neither saved nor cancelled, by
 * conversation (null: the new chat). A new chat's go with it when its first message creates it, at the point its
 * saved settings do (new-chat-settings.ts `newChatSettingsTaken`): they are offered, still unsaved, in the chat that was
 * created, and the next new chat starts without them. They stayed with the new chat, so the next one was offered what
 * was typed for another.
 *
 * They are kept in localStorage too, so a reload or a restart brings them back, "*" and all: they lived in the page,
 * and a reload lost what was typed (the last closing note's gaps). localStorage, not sessionStorage: a closed window
 * or a quit ends a tab's sessionStorage, which is why the drafts left it (drafts.ts). Not main's database, as the
 * drafts are: this is a few fields a user has not committed to, and a table, a migration and two channels for them
 * would outweigh them; what is lost without main is another browser or device in serve mode, which never saw them.
 * One key holds all of them, read and written back at each change, so one tab writes only the chats it changed
 * (each tab reads the others' at its start, as with the drafts). A deleted chat's go with it (conversation-actions.ts).
 * What the open popover holds is written as it is typed (`noteUnsavedTyping`), so a reload with it open keeps it too.
 */
import type { ThinkMode } from '../../shared/models';
import { pageStorage } from './page-storage';

/** What the popover's fields hold. */
export interface UnsavedChatSettings {
  prompt: string;
  think: ThinkMode | '';
  tools: boolean;
}

/** The localStorage key: an object from conversation id ('' the new chat) to its fields. */
export const UNSAVED_CHAT_SETTINGS_KEY = 'firebrand.unsaved-chat-settings';
const THINK: ReadonlySet<string> = new Set(['', 'off', 'on', 'low', 'medium', 'high']);

/** null until read from storage (at the first use, so a test's fake storage set up before it is the one read). */
let unsaved: Map<string | null, UnsavedChatSettings> | null = null;
/** The conversation the new chat's last first message created: a popover still open for the new chat writes there. */
let startedAs: string | null = null;

const keyOf = (conversationId: string | null) => conversationId ?? '';

function isFields(v: unknown): v is UnsavedChatSettings {
  if (!v || typeof v !== 'object') return false;
  const { prompt, think, tools } = v as Record<string, unknown>;
  return typeof prompt === 'string' && typeof think === 'string' && THINK.has(think) && typeof tools === 'boolean';
}

/** What storage holds, by key; a value that is not ours (another version's, edited by hand) is skipped. */
function readStored(): Record<string, UnsavedChatSettings> {
  try {
    const raw = pageStorage()?.getItem(UNSAVED_CHAT_SETTINGS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, UnsavedChatSettings] => isFields(e[1])));
  } catch {
    return {};
  }
}

/** Writes `conversationId`'s entry (undefined: removes it), leaving the others as storage has them now. */
function store(conversationId: string | null, fields: UnsavedChatSettings | undefined): void {
  const s = pageStorage();
  if (!s) return;
  const all = readStored();
  if (fields) all[keyOf(conversationId)] = fields;
  else delete all[keyOf(conversationId)];
  try {
    if (Object.keys(all).length === 0) s.removeItem(UNSAVED_CHAT_SETTINGS_KEY);
    else s.setItem(UNSAVED_CHAT_SETTINGS_KEY, JSON.stringify(all));
  } catch {
    // Storage full: kept in the page, as before; a reload loses them.
  }
}

function kept(): Map<string | null, UnsavedChatSettings> {
  if (!unsaved) unsaved = new Map(Object.entries(readStored()).map(([k, v]) => [k === '' ? null : k, v]));
  return unsaved;
}

export function unsavedChatSettings(conversationId: string | null): UnsavedChatSettings | undefined {
  return kept().get(conversationId);
}

export function keepUnsavedChatSettings(conversationId: string | null, fields: UnsavedChatSettings): void {
  kept().set(conversationId, fields);
  store(conversationId, fields);
}

/**
 * What the open popover holds, as it is typed: written to storage only, so a reload brings it back unsaved; the page
 * keeps it when the popover closes (`keepUnsavedChatSettings`), and the button's "*" shows from then, as before.
 */
export function noteUnsavedTyping(conversationId: string | null, fields: UnsavedChatSettings): void {
  // The page's are read first: read after, they would take these in, "*" and all.
  kept();
  store(conversationId, fields);
}

export function dropUnsavedChatSettings(conversationId: string | null): void {
  kept().delete(conversationId);
  store(conversationId, undefined);
}

/** The new chat's first message created `conversationId`: what was typed for the new chat is that chat's now. */
export function newChatStartedAs(conversationId: string): void {
  startedAs = conversationId;
  const map = kept();
  const fromPage = map.get(null);
  // Storage's is newer when typed in a popover still open (it closes as the chat opens, and keeps it then).
  const moved = readStored()[''] ?? fromPage;
  map.delete(null);
  store(null, undefined);
  if (fromPage) map.set(conversationId, fromPage);
  if (moved) store(conversationId, moved);
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

/** For tests: a new page's memory (storage is read again at the next use). */
export function resetUnsavedChatSettings(): void {
  unsaved = null;
  startedAs = null;
}
