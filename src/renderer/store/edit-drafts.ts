/**
 * The changed edit of a sent message, kept in the page's localStorage by the message's id until it is sent or
 * discarded: a reload (or the message leaving a long chat's list and coming back) reopened the message as sent and
 * lost what was typed, where the message box keeps its draft (drafts.ts). Its text, which of the message's files it
 * keeps, and the files added in it come back.
 *
 * Added files are stored in main as the message box's are (addAttachment), and main holds them for the edit as it holds
 * a draft's (drafts:hold-edit-files, the same draft_attachments rows): the collector's hour of grace would otherwise
 * sweep them at a later start, and the edit would come back naming files main no longer has. The same call, made for
 * every kept edit as the page opens, says which messages are gone (a chat deleted in another tab, Make room): their
 * edits are forgotten then, and a chat deleted here for good takes its edits with it (`forgetEditDraftsOf`). Nothing is
 * kept by age: an edit is the user's until its message goes.
 */
import { create } from 'zustand';
import type { EditFilesHeld } from '../../shared/ipc';
import type { AttachmentBlock } from '../../shared/turn';
import { firebrand } from '../firebrand';
import { isAttachmentBlock } from './drafts';
import { pageStorage } from './page-storage';

export const EDIT_DRAFTS_KEY = 'firebrand.edit-drafts';

export interface EditDraft {
  text: string;
  keep: number[];
  /** Files added in the edit, after those kept (stored in main, held there for the edit). */
  added: AttachmentBlock[];
  /** The message's conversation: deleted for good, it takes the edit (absent in an edit kept before it was noted). */
  conversationId?: string;
}

type Kept = Record<string, unknown>;

function readAll(): Kept {
  try {
    const parsed: unknown = JSON.parse(pageStorage()?.getItem(EDIT_DRAFTS_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Kept) : {};
  } catch {
    return {};
  }
}

/**
 * Counts the writes of the kept edits, for what shows them elsewhere than their message (the message box's "unsent
 * edit" note, KeptEditNote.tsx): localStorage tells this page nothing of its own writes.
 */
export const useEditDraftsVersion = create(() => 0);

function writeAll(all: Kept): void {
  const storage = pageStorage();
  if (!storage) return;
  useEditDraftsVersion.setState((n) => n + 1, true);
  try {
    if (Object.keys(all).length === 0) storage.removeItem(EDIT_DRAFTS_KEY);
    else storage.setItem(EDIT_DRAFTS_KEY, JSON.stringify(all));
  } catch {
    // Storage full or refused: the edit stays on screen, as before.
  }
}

/** One kept edit as read; one read badly (another version's shape, edited by hand) is none. */
function asDraft(found: unknown): EditDraft | null {
  if (!found || typeof found !== 'object') return null;
  const { text, keep, added, conversationId } = found as Record<string, unknown>;
  if (typeof text !== 'string' || !Array.isArray(keep)) return null;
  return {
    text,
    keep: keep.filter((i): i is number => Number.isInteger(i)),
    added: Array.isArray(added) ? added.filter(isAttachmentBlock) : [],
    ...(typeof conversationId === 'string' ? { conversationId } : {}),
  };
}

/** The messages with a kept edit, read at once (the message box's note looks through a whole chat's messages). */
export function keptEditIds(): Set<string> {
  return new Set(Object.keys(readAll()).filter((id) => readEditDraft(id) !== null));
}

/** The edit kept for a message, or null. */
export function readEditDraft(turnId: string): EditDraft | null {
  return asDraft(readAll()[turnId]);
}

const sameFiles = (a: readonly AttachmentBlock[], b: readonly AttachmentBlock[]) => a.length === b.length && a.every((x, i) => x.id === b[i]?.id);

/** Keeps a message's changed edit, or (null) forgets it: sent, discarded, or back as the message was. */
export function keepEditDraft(turnId: string, draft: EditDraft | null): void {
  if (!pageStorage()) return;
  const all = readAll();
  const before = asDraft(all[turnId]);
  if (draft === null && !(turnId in all)) return;
  if (draft === null) delete all[turnId];
  else all[turnId] = draft;
  writeAll(all);
  // Main holds the files added as they change, and lets them go with the edit.
  const added = draft?.added ?? [];
  if (!sameFiles(before?.added ?? [], added)) void holdEditFiles([{ turnId, attachments: added }]).catch(() => undefined);
}

function holdEditFiles(edits: { turnId: string; attachments: AttachmentBlock[] }[]): Promise<EditFilesHeld[]> {
  return firebrand()
    .drafts.holdEditFiles({ edits })
    .then((r) => r.edits);
}

/**
 * The files added in a message's kept edit that main no longer has (swept, or the data folder changed): the edit
 * comes back without them and says so. Held again meanwhile (a hold that failed when the edit was kept is asked
 * again). None where main cannot be asked: Send then says which file is missing, as for the message box.
 */
export async function editFilesMissing(turnId: string, added: readonly AttachmentBlock[]): Promise<AttachmentBlock[]> {
  if (added.length === 0) return [];
  try {
    const [held] = await holdEditFiles([{ turnId, attachments: [...added] }]);
    return held ? added.filter((b) => held.missing.includes(b.id)) : [];
  } catch {
    return [];
  }
}

/** Forgets every edit of a conversation deleted for good (main let their files go with its messages). */
export function forgetEditDraftsOf(conversationId: string): void {
  const all = readAll();
  const left = Object.fromEntries(Object.entries(all).filter(([, d]) => asDraft(d)?.conversationId !== conversationId));
  if (Object.keys(left).length !== Object.keys(all).length) writeAll(left);
}

/**
 * As the page opens: forgets the kept edits whose message main no longer has (its chat deleted in another tab or
 * window, or by a version before edits noted their chat; its turns dropped by Make room), which nothing would ever
 * open again, and has main hold the files of the others. One call for all of them; kept as they are where it fails.
 */
export async function pruneEditDrafts(): Promise<void> {
  const kept = Object.entries(readAll()).flatMap(([turnId, d]) => {
    const draft = asDraft(d);
    return draft ? [{ turnId, attachments: draft.added }] : [];
  });
  if (kept.length === 0) return;
  let held: EditFilesHeld[];
  try {
    held = await holdEditFiles(kept);
  } catch {
    return;
  }
  const gone = new Set(held.filter((h) => h.gone).map((h) => h.turnId));
  if (gone.size === 0) return;
  // Read again: this tab may have kept an edit meanwhile.
  writeAll(Object.fromEntries(Object.entries(readAll()).filter(([turnId]) => !gone.has(turnId))));
}
