/**
 * Drafts stay with their conversation. The composer is one box for every conversation, so what was typed (and the
 * files attached) in one went along to the next one opened, and a message meant for one chat was sent in another,
 * attachments and all; a reload lost it (the audit's notes). Now, as the conversation on screen changes by
 * navigation (a conversation opened, a new chat started), the composer's draft is kept for the one left and the one
 * opened gets its own back. Sending in a new chat is not navigation: the draft goes with the message.
 *
 * Main keeps them (db/draft-store.ts), so a reload, a closed window and a quit bring them back, files included: a
 * kept draft's files keep their bytes in the blob store. They lived in the tab's sessionStorage, and closing the
 * window lost what the user had written (the left-out list of the last stops). The one on screen is saved shortly
 * after each edit (a crash loses less than a second of typing), the one left by a navigation at once, and all of
 * them as the page is hidden. Main drops a draft when its message is sent (chat:send).
 *
 * Each tab keeps the drafts it read at its start and those it kept since; another tab's later edits are read at
 * the next start (two tabs typing in one chat: the last to save wins).
 *
 * A draft is also written to localStorage as it is sent to main, and taken out once main has kept it: one main never
 * kept wins over main's at the next start, which asks main again. Serve mode restarted with a new token refuses the
 * page from then on ("Open the address it printed this time"), and what was typed meanwhile, or in the second before,
 * was lost as that address opened; so was a draft saved as the tab closed while its link was down.
 */
import type { KeptDraft, SavedDraft } from '../../shared/ipc';
import type { AttachmentBlock } from '../../shared/turn';
import { takeFirst } from '../boot';
import { firebrand } from '../firebrand';
import { useStore } from '.';
import { adoptNewChatSettings, resetNewChatSettings, retryNewChatSettings } from './new-chat-settings';
import { resetUnsavedChatSettings } from './unsaved-chat-settings';
import { pageStorage } from './page-storage';

export interface Draft {
  text: string;
  attachments: AttachmentBlock[];
}

/** The composer, which holds the draft on screen. */
export interface DraftHolder {
  take(): Draft;
  put(draft: Draft): void;
}

/** A new chat's draft (no conversation yet). */
const NEW_CHAT = '';
const EMPTY: Draft = { text: '', attachments: [] };
/** What main holds of a draft whose save failed: unknown, so equal to no draft on screen. */
const NOT_KEPT: Draft = { text: '\u0000not kept', attachments: [] };
/** How long after the last edit the draft on screen is saved: a save per keystroke would be a write per keystroke. */
export const SAVE_AFTER_MS = 600;

const keyOf = (conversationId: string | null) => conversationId ?? NEW_CHAT;
const idOf = (key: string) => (key === NEW_CHAT ? null : key);
const isEmpty = (d: Draft) => d.text === '' && d.attachments.length === 0;
const same = (a: Draft, b: Draft) => a.text === b.text && a.attachments.length === b.attachments.length && a.attachments.every((x, i) => x.id === b.attachments[i]?.id);

/** The drafts of the conversations not on screen. */
let drafts = new Map<string, Draft>();
let holder: DraftHolder | null = null;
/** The draft last put on screen (the composer's first, or one a navigation brought): what `draftTouched` compares. */
let shown: Draft = EMPTY;
/** The draft on screen as main last kept it (or as it came from main), and whose it is: an edit is saved against it. */
let saved: { key: string; draft: Draft } = { key: NEW_CHAT, draft: EMPTY };
/**
 * The composer has taken its first draft but holds none yet (it registers after its first render), and the one
 * main kept for it, come meanwhile: given to it as it registers. Put in the list, it would stay out of sight.
 */
let unheld = false;
let cameUnheld: { key: string; draft: Draft } | null = null;
/** The save waiting for the typing to pause. */
let timer: ReturnType<typeof setTimeout> | null = null;
/** The conversation on screen: the holder's draft is its. */
const onScreen = () => useStore.getState().activeId;

/**
 * Asks main to keep a draft. A failure (the link to main down a moment) leaves it in this tab, and the draft on
 * screen is taken as not kept, so the next save point (an edit, leaving the chat, the page hidden) asks again.
 */
function save(key: string, draft: Draft): void {
  const request: SavedDraft = { conversationId: idOf(key), text: draft.text, attachments: draft.attachments };
  storeUnkept(key, draft);
  void firebrand()
    .drafts.save(request)
    .then(
      () => storeUnkept(key, undefined, draft),
      () => {
        if (saved.key === key && saved.draft === draft) saved = { key, draft: NOT_KEPT };
      },
    );
}

/** The localStorage key: an object from conversation key ('' the new chat) to a draft main has not said it kept. */
export const UNKEPT_DRAFTS_KEY = 'firebrand.unkept-drafts';

function isDraft(v: unknown): v is Draft {
  if (!v || typeof v !== 'object') return false;
  const { text, attachments } = v as Record<string, unknown>;
  return typeof text === 'string' && Array.isArray(attachments) && attachments.every(isAttachmentBlock);
}

/** The drafts storage holds, by key; a value that is not one (another version's, edited by hand) is skipped. */
function readUnkept(): Record<string, Draft> {
  try {
    const raw = pageStorage()?.getItem(UNKEPT_DRAFTS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, Draft] => isDraft(e[1])));
  } catch {
    return {};
  }
}

/**
 * Writes `key`'s draft not yet kept by main (undefined: taken out; with `kept`, main has kept that one, and a later one
 * storage holds stays), leaving the other keys as storage has them (another tab's).
 */
function storeUnkept(key: string, draft: Draft | undefined, kept?: Draft): void {
  const s = pageStorage();
  if (!s) return;
  const all = readUnkept();
  const stored = all[key];
  if (draft) all[key] = { text: draft.text, attachments: draft.attachments };
  else if (stored && (!kept || same(stored, kept))) delete all[key];
  else return;
  try {
    if (Object.keys(all).length === 0) s.removeItem(UNKEPT_DRAFTS_KEY);
    else s.setItem(UNKEPT_DRAFTS_KEY, JSON.stringify(all));
  } catch {
    // Storage full: main's copy only, as before.
  }
}

/** Main's drafts with those it never kept in their place (newer: typed after its last save), and those drafts. */
function withUnkept(list: readonly KeptDraft[]): { list: KeptDraft[]; unkept: [string, Draft][] } {
  const unkept = Object.entries(readUnkept());
  const byKey = new Map(unkept);
  const merged: KeptDraft[] = list.map((d) => {
    const mine = byKey.get(keyOf(d.conversationId));
    return mine ? { ...d, text: mine.text, attachments: mine.attachments } : d;
  });
  for (const [key, d] of unkept) if (!list.some((k) => keyOf(k.conversationId) === key)) merged.push({ conversationId: idOf(key), text: d.text, attachments: d.attachments });
  return { list: merged, unkept };
}

function cancelPending(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

function keepFor(conversationId: string | null, draft: Draft): void {
  const key = keyOf(conversationId);
  if (isEmpty(draft)) drafts.delete(key);
  else drafts.set(key, draft);
}

/**
 * The drafts main keeps, read as the page opens (boot.ts asks with its first requests). One this tab has kept
 * meanwhile is newer and stays; the composer gets its own, with any words typed before it came after it. A new
 * chat's settings come with its draft (new-chat-settings.ts), and show at once when the new chat is on screen.
 */
export function adoptSavedDrafts(list: readonly KeptDraft[]): void {
  for (const d of list) {
    const key = keyOf(d.conversationId);
    if (d.conversationId === null && d.settings && adoptNewChatSettings(d.settings) && onScreen() === null) useStore.setState({ conversationSettings: d.settings });
    const draft = { text: d.text, attachments: d.attachments.filter(isAttachmentBlock) };
    if (isEmpty(draft)) continue;
    if (key === keyOf(onScreen()) && holder) putArrived(holder, key, draft);
    else if (key === keyOf(onScreen()) && unheld) cameUnheld = { key, draft };
    else if (!drafts.has(key)) drafts.set(key, draft);
  }
}

/**
 * Puts a draft main kept on screen. Typed before it came (a quick hand as the window opened): the words go after
 * it, as when a chat's draft arrives under words typed while it was read (switchDraft).
 */
function putArrived(h: DraftHolder, key: string, draft: Draft): void {
  shown = joined(draft, h.take());
  saved = { key, draft };
  h.put(shown);
}

/** Loads main's drafts (the answer boot.ts asked for, else asks now). */
export function loadSavedDrafts(): void {
  const adopt = (kept: readonly KeptDraft[]) => {
    const { list, unkept } = withUnkept(kept);
    adoptSavedDrafts(list);
    // Main is asked again to keep them (taken out of storage once it has).
    for (const [key, draft] of unkept) save(key, draft);
  };
  void (takeFirst('drafts') ?? firebrand().drafts.list({})).then(adopt, () => adopt([]));
}

/** `kept`, then what was typed on top (a blank line between). */
function joined(kept: Draft, typed: Draft): Draft {
  if (isEmpty(typed)) return kept;
  return { text: [kept.text, typed.text].filter((t) => t !== '').join('\n\n'), attachments: [...kept.attachments, ...typed.attachments] };
}

/** The composer's draft for the conversation it shows first (taken: it is the holder's from then on). */
export function takeDraft(conversationId: string | null): Draft {
  const key = keyOf(conversationId);
  const draft = drafts.get(key) ?? EMPTY;
  drafts.delete(key);
  if (!holder) unheld = true;
  shown = draft;
  saved = { key, draft };
  return draft;
}

/**
 * Whether the user has typed or attached in the composer since its draft was put there. A reload's reopening of the
 * conversation that was open (reopen-on-reload.ts) is not made over it: it would swap the words being typed in the new
 * chat for that conversation's draft, and they went from the screen (kept for the new chat, out of sight).
 */
export function draftTouched(): boolean {
  if (!holder) return false;
  return !same(holder.take(), shown);
}

/** The composer registers as the holder of the draft on screen; returns its release. */
export function holdDrafts(h: DraftHolder): () => void {
  holder = h;
  unheld = false;
  const came = cameUnheld;
  cameUnheld = null;
  if (came && came.key === keyOf(onScreen())) putArrived(h, came.key, came.draft);
  else if (came) keepFor(idOf(came.key), came.draft);
  return () => {
    if (holder !== h) return;
    const now = h.take();
    keepFor(onScreen(), now);
    flushDraft();
    holder = null;
  };
}

/**
 * The composer's draft changed (typed, attached, removed, cleared): main keeps it once the typing pauses, or at once
 * when it is empty now (sent, or cleared: were the save late, a quit meanwhile would bring it back).
 */
export function draftEdited(): void {
  if (!holder) return;
  const key = keyOf(onScreen());
  // A new chat given its id by sending (not a navigation): main dropped the draft it was sent from.
  if (saved.key !== key) saved = { key, draft: EMPTY };
  cancelPending();
  const now = holder.take();
  if (same(now, saved.draft)) return;
  if (isEmpty(now)) flushDraft();
  else timer = setTimeout(flushDraft, SAVE_AFTER_MS);
}

/**
 * A file attached in `conversationId`'s composer was stored after the user had moved to another conversation: it
 * joins the draft of the one it was attached in (main keeps it there). It was added to the draft on screen, and so
 * sent in a chat it was not meant for while missing from its own (documents audit #1).
 */
export function keepAttachmentFor(conversationId: string | null, block: AttachmentBlock): void {
  const key = keyOf(conversationId);
  const draft = drafts.get(key) ?? EMPTY;
  if (draft.attachments.some((b) => b.id === block.id && b.name === block.name)) return;
  const next = { text: draft.text, attachments: [...draft.attachments, block] };
  drafts.set(key, next);
  save(key, next);
}

/** A message is being sent from the draft on screen: no save of it may follow the send (it would bring it back). */
export function draftSending(): void {
  cancelPending();
  // Main drops its draft with the send; one it never kept would come back at the next start, a message sent already.
  storeUnkept(keyOf(onScreen()), undefined);
}

/** Saves the draft on screen now if it changed since main kept it. */
export function flushDraft(): void {
  cancelPending();
  retryNewChatSettings();
  if (!holder) return;
  const key = keyOf(onScreen());
  const now = holder.take();
  if (saved.key === key && same(now, saved.draft)) return;
  saved = { key, draft: now };
  save(key, now);
}

/** The composer's draft as the latest navigation began (null: no composer then). */
let atNavigation: Draft | null = null;

/**
 * A navigation begins: what the composer holds now is the draft of the conversation being left. A conversation is
 * read before it is shown (on a busy machine for seconds), and a user who clicked a chat and began to type meant
 * the words for that chat.
 */
export function noteDraftAtNavigation(): void {
  atNavigation = holder ? holder.take() : null;
}

/** The conversation on screen changes by navigation from `from` to `to`: the drafts change places. */
export function switchDraft(from: string | null, to: string | null): void {
  const before = atNavigation;
  atNavigation = null;
  if (from === to || !holder) return;
  cancelPending();
  const now = holder.take();
  // Typed into an empty composer while `to` was read: those words stay on screen, after any draft `to` kept.
  // (Typed on top of a draft, they stay with it: whose words those are is not known.)
  if (before !== null && isEmpty(before) && !isEmpty(now)) {
    const waiting = takeDraft(to);
    shown = joined(waiting, now);
    holder.put(shown);
    // Kept for `to` now; `from` keeps what it had (it was left empty).
    saved = { key: keyOf(to), draft: waiting };
    flushDraft();
    return;
  }
  keepFor(from, now);
  if (!(saved.key === keyOf(from) && same(now, saved.draft))) save(keyOf(from), now);
  holder.put(takeDraft(to));
}

export function isAttachmentBlock(b: unknown): b is AttachmentBlock {
  if (!b || typeof b !== 'object') return false;
  const { type, id, kind, name, mime, size } = b as Record<string, unknown>;
  return type === 'attachment' && typeof id === 'string' && (kind === 'image' || kind === 'document' || kind === 'text') && typeof name === 'string' && typeof mime === 'string' && typeof size === 'number';
}

/** Keeps the draft on screen when the page goes away or is hidden (a phone may end a hidden tab without unloading it). */
export function persistDraftsOnHide(): void {
  addEventListener('pagehide', flushDraft);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushDraft();
  });
}

/** For tests: forget every draft and holder, and the new chat's settings (saved or only typed). */
export function resetDrafts(): void {
  cancelPending();
  resetNewChatSettings();
  resetUnsavedChatSettings();
  drafts = new Map();
  holder = null;
  unheld = false;
  cameUnheld = null;
  shown = EMPTY;
  saved = { key: NEW_CHAT, draft: EMPTY };
  atNavigation = null;
}
