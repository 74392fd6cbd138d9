/**
 * Drafts stay with their conversation. The composer is one box for every conversation, so what was typed (and the
 * files attached) in one went along to the next one opened, and a message meant for one chat was sent in another,
 * attachments and all; a reload lost it (the audit's notes). Now, as the conversation on screen changes by
 * navigation (a conversation opened, a new chat started), the composer's draft is kept for the one left and the one
 * opened gets its own back. Sending in a new chat is not navigation: the draft goes with the message.
 *
 * The drafts are also kept in the tab's sessionStorage when the page is hidden or unloaded (per tab, gone with it), so
 * a reload brings them back, files included: a file's bytes wait in main's blob store, by the block's id, for the
 * collector's grace period (an hour). Before, only the texts came back, and an image pasted from the clipboard was
 * gone with no word said (conversations audit D3). One whose bytes went meanwhile is shown as a file that cannot be
 * read, which the user removes or attaches again.
 */
import type { AttachmentBlock } from '../../shared/turn';
import { useStore } from '.';

export interface Draft {
  text: string;
  attachments: AttachmentBlock[];
}

/** The composer, which holds the draft on screen. */
export interface DraftHolder {
  take(): Draft;
  put(draft: Draft): void;
}

const KEY = 'firebrand.drafts';
/** A new chat's draft (no conversation yet). */
const NEW_CHAT = '';
const EMPTY: Draft = { text: '', attachments: [] };

const keyOf = (conversationId: string | null) => conversationId ?? NEW_CHAT;
const isEmpty = (d: Draft) => d.text === '' && d.attachments.length === 0;

let drafts: Map<string, Draft> | null = null;
let holder: DraftHolder | null = null;
/** The draft last put on screen (the composer's first, or one a navigation brought): what `draftTouched` compares. */
let shown: Draft = EMPTY;
/** The conversation on screen: the holder's draft is its. */
const onScreen = () => useStore.getState().activeId;

function kept(): Map<string, Draft> {
  if (drafts) return drafts;
  drafts = new Map();
  try {
    const raw = sessionStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === 'object') {
      for (const [key, value] of Object.entries(parsed)) {
        const draft = storedDraft(value);
        if (draft && !isEmpty(draft)) drafts.set(key, draft);
      }
    }
  } catch {
    // Storage refused or unreadable: drafts live as long as the page, as they did.
  }
  return drafts;
}

function keepFor(conversationId: string | null, draft: Draft): void {
  if (isEmpty(draft)) kept().delete(keyOf(conversationId));
  else kept().set(keyOf(conversationId), draft);
}

/** The composer's draft for the conversation it shows first (taken: it is the holder's from then on). */
export function takeDraft(conversationId: string | null): Draft {
  const draft = kept().get(keyOf(conversationId)) ?? EMPTY;
  kept().delete(keyOf(conversationId));
  shown = draft;
  return draft;
}

/**
 * Whether the user has typed or attached in the composer since its draft was put there. A reload's reopening of the
 * conversation that was open (reopen-on-reload.ts) is not made over it: it would swap the words being typed in the new
 * chat for that conversation's draft, and they went from the screen (kept for the new chat, out of sight).
 */
export function draftTouched(): boolean {
  if (!holder) return false;
  const now = holder.take();
  return now.text !== shown.text || now.attachments.length !== shown.attachments.length;
}

/** The composer registers as the holder of the draft on screen; returns its release. */
export function holdDrafts(h: DraftHolder): () => void {
  holder = h;
  return () => {
    if (holder !== h) return;
    keepFor(onScreen(), h.take());
    holder = null;
  };
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
  const now = holder.take();
  // Typed into an empty composer while `to` was read: those words stay on screen, after any draft `to` kept.
  // (Typed on top of a draft, they stay with it: whose words those are is not known.)
  if (before !== null && isEmpty(before) && !isEmpty(now)) {
    const waiting = takeDraft(to);
    shown = isEmpty(waiting) ? now : { text: [waiting.text, now.text].filter((t) => t !== '').join('\n\n'), attachments: [...waiting.attachments, ...now.attachments] };
    holder.put(shown);
    return;
  }
  keepFor(from, now);
  holder.put(takeDraft(to));
}

/** A draft as stored: `{ text, attachments }`, or a text alone (as drafts were stored before); null if neither. */
function storedDraft(value: unknown): Draft | null {
  if (typeof value === 'string') return { text: value, attachments: [] };
  if (!value || typeof value !== 'object') return null;
  const { text, attachments } = value as { text?: unknown; attachments?: unknown };
  if (typeof text !== 'string') return null;
  return { text, attachments: Array.isArray(attachments) ? attachments.filter(isAttachmentBlock) : [] };
}

function isAttachmentBlock(b: unknown): b is AttachmentBlock {
  if (!b || typeof b !== 'object') return false;
  const { type, id, kind, name, mime, size } = b as Record<string, unknown>;
  return type === 'attachment' && typeof id === 'string' && (kind === 'image' || kind === 'document' || kind === 'text') && typeof name === 'string' && typeof mime === 'string' && typeof size === 'number';
}

/** Writes the drafts to sessionStorage (the one on screen included), for a reload. */
export function persistDrafts(): void {
  const stored: Record<string, Draft> = {};
  for (const [key, d] of kept()) if (!isEmpty(d)) stored[key] = d;
  const current = holder?.take() ?? EMPTY;
  if (!isEmpty(current)) stored[keyOf(onScreen())] = current;
  try {
    if (Object.keys(stored).length === 0) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify(stored));
  } catch {
    // As above.
  }
}

/** Keeps the drafts when the page goes away or is hidden (a phone may end a hidden tab without unloading it). */
export function persistDraftsOnHide(): void {
  addEventListener('pagehide', persistDrafts);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') persistDrafts();
  });
}

/** For tests: forget every draft and holder. */
export function resetDrafts(): void {
  drafts = null;
  holder = null;
  shown = EMPTY;
  atNavigation = null;
}
