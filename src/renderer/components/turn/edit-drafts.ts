/**
 * The changed edit of a sent message, kept in the page's localStorage by the message's id until it is sent or
 * discarded: a reload (or the message leaving a long chat's list and coming back) reopened the message as sent and
 * lost what was typed, where the message box keeps its draft (drafts.ts). Its text and which of the message's files
 * it keeps come back; files added in the edit do not (they are dropped with the form, use-edit-attachments.ts).
 */
import { pageStorage } from '../../store/page-storage';

export const EDIT_DRAFTS_KEY = 'firebrand.edit-drafts';

export interface EditDraft {
  text: string;
  keep: number[];
}

type Kept = Record<string, EditDraft>;

function readAll(): Kept {
  try {
    const parsed: unknown = JSON.parse(pageStorage()?.getItem(EDIT_DRAFTS_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Kept) : {};
  } catch {
    return {};
  }
}

/** The edit kept for a message, or null; one read badly (another version's shape) is none. */
export function readEditDraft(turnId: string): EditDraft | null {
  const found = readAll()[turnId];
  if (!found || typeof found.text !== 'string' || !Array.isArray(found.keep)) return null;
  return { text: found.text, keep: found.keep.filter((i): i is number => Number.isInteger(i)) };
}

/** Keeps a message's changed edit, or (null) forgets it: sent, discarded, or back as the message was. */
export function keepEditDraft(turnId: string, draft: EditDraft | null): void {
  const storage = pageStorage();
  if (!storage) return;
  const all = readAll();
  if (draft === null && !(turnId in all)) return;
  if (draft === null) delete all[turnId];
  else all[turnId] = draft;
  try {
    if (Object.keys(all).length === 0) storage.removeItem(EDIT_DRAFTS_KEY);
    else storage.setItem(EDIT_DRAFTS_KEY, JSON.stringify(all));
  } catch {
    // Storage full or refused: the edit stays on screen, as before.
  }
}
