/** Saving a conversation to a file and reading one back: the bytes never touch the renderer's storage. */
import { CONVERSATION_FILE_MAX_BYTES, IMPORT_CHUNK_BYTES, importFileTooLargeMessage } from '../../shared/file-limits';
import { firebrand } from '../firebrand';
import { toBase64 } from './attachments';
import { FirebrandError, type ImportResult } from '../../shared/ipc';
import { errorMessage } from './errors';
import { reachConversations } from './conversation-list';
import { saveFile } from './save-file';
import { fail, INFO, openConversation, REFUSED, showNotice, useStore } from '.';

/**
 * Asks main for the file and hands it to the browser's (or the desktop app's) save flow, and says how it ended:
 * the download went by with nothing on screen, and a user could not tell an export that worked from one that did
 * nothing. The desktop app's save dialog may be cancelled (nothing said) or fail to write (said, with Retry).
 */
export async function exportConversationFile(conversationId: string, format: 'json' | 'markdown'): Promise<void> {
  const retry = () => void exportConversationFile(conversationId, format);
  try {
    const file = await firebrand().conversations.export({ conversationId, format });
    const saved = await saveFile(file);
    if (saved.state === 'cancelled') return;
    if (saved.state === 'interrupted') return fail(new Error(savingFailedMessage(saved.fileName)), retry);
    showNotice(exportedMessage(file.title, saved.fileName, format, saved.state === 'completed'), INFO);
  } catch (err) {
    fail(exportFailed(err), retry);
  }
}

/** Every conversation in one file (Export all), saved the same way; Import reads it back whole. */
export async function exportAllConversations(): Promise<void> {
  const retry = () => void exportAllConversations();
  try {
    const file = await firebrand().conversations.exportAll({});
    const saved = await saveFile(file);
    if (saved.state === 'cancelled') return;
    if (saved.state === 'interrupted') return fail(new Error(savingFailedMessage(saved.fileName)), retry);
    showNotice(`Exported every conversation ${saved.state === 'completed' ? 'to' : 'as'} “${saved.fileName}”.`, INFO);
  } catch (err) {
    fail(exportFailed(err), retry);
  }
}

/**
 * What the notice says once an export was saved: handed to the browser's download ("as" the name offered), or
 * `written` by the desktop app ("to" the file the user chose in its dialog).
 */
export function exportedMessage(title: string, fileName: string, format: 'json' | 'markdown', written = false): string {
  return `Exported “${title}”${format === 'markdown' ? ' (current branch, as Markdown)' : ''} ${written ? 'to' : 'as'} “${fileName}”.`;
}

/** The desktop app's save dialog closed on a file, and writing it failed (Electron gives no reason). */
export function savingFailedMessage(fileName: string): string {
  return `The export could not be saved to “${fileName}”: writing the file failed (is the disk full, or the folder read-only?). Retry to choose a place again.`;
}

/**
 * A failed export's message names the export: main's own refusals do ("…cannot be exported whole"), but a failure
 * on the way (the browser could not make the file, a dropped link) read as if something else had failed.
 */
function exportFailed(err: unknown): Error {
  const why = errorMessage(err);
  return /export/i.test(why) ? new Error(why) : new Error(`The export failed, and nothing was saved: ${why}`);
}

/** What the notice says after an Export all came back in; `copies` of them were here already (marked "(imported copy)"). */
export function importedMessage(imported: number, copies = 0): string {
  const count = imported === 1 ? 'Imported 1 conversation.' : `Imported ${imported} conversations.`;
  if (copies === 0) return count;
  const here = copies === imported ? (imported === 1 ? 'It was' : 'All were') : copies === 1 ? '1 was' : `${copies} were`;
  return `${count} ${here} already here, so ${copies === 1 ? 'it is' : 'they are'} marked “(imported copy)”.`;
}

/** Imports a Firebrand export file (one conversation or an Export all) and opens it; a refused file says why and nothing is written. */
export async function importConversationFile(file: File): Promise<void> {
  // Said while it is on its way in (export audit #4: a large file took seconds with nothing on screen, and the
  // Import button, still there, imported it a second time).
  if (useStore.getState().importing !== null) return;
  useStore.setState({ importing: file.name });
  try {
    // Said here, before a byte is read: main would refuse it with the same words (and code) after the upload.
    if (file.size === 0) throw refusedFile(`“${file.name}” is empty; there is nothing to import.`);
    if (file.size > CONVERSATION_FILE_MAX_BYTES) throw refusedFile(importFileTooLargeMessage(file.name, file.size));
    const { conversationId, imported, all, copies, title, listedAbove } = await uploadAndImport(file);
    // It opens where it is listed, by its own last message: the list reads that far, and shows it there.
    // An Export all: the most recent of them opens, and the banner says how many came in.
    await Promise.all([openConversation(conversationId), reachConversations(listedAbove + 1)]);
    if (all) showNotice(importedMessage(imported, copies), INFO);
    else if (copies > 0) showNotice(`This conversation was already here, so it came in as a copy: “${title}”.`, INFO);
  } catch (err) {
    // Refused for what it holds (not an export, damaged, from a newer Firebrand, empty, too large): the same file is
    // refused again, so Close only; Retry imported it again to the same words. Otherwise Retry: the same file again
    // (refused for a reason that may pass, such as a full disk, a lost link or other imports still on their way).
    if (err instanceof FirebrandError && err.code === 'invalid-payload') showNotice(errorMessage(err), REFUSED);
    else fail(err, () => void importConversationFile(file));
  } finally {
    useStore.setState({ importing: null });
  }
}

/** A file refused for what it is, in the page, as main refuses it (`invalid-payload`). */
function refusedFile(message: string): FirebrandError {
  return new FirebrandError({ code: 'invalid-payload', message });
}

/**
 * Sends the file to main in IMPORT_CHUNK_BYTES pieces (one payload could not carry a large export: the serve
 * socket takes frames of 64 MiB at most), then imports it there. A failure part way cancels the upload.
 */
async function uploadAndImport(file: File): Promise<ImportResult> {
  const api = firebrand().conversations;
  const { uploadId } = await api.importBegin({ size: file.size, name: file.name.slice(0, 500) });
  const piece = (offset: number) => base64Of(file.slice(offset, offset + IMPORT_CHUNK_BYTES));
  // One chunk in flight at a time (main takes them in order), the next one read and encoded meanwhile.
  let next = piece(0);
  try {
    for (let offset = 0; offset < file.size; offset += IMPORT_CHUNK_BYTES) {
      const dataBase64 = await next;
      if (offset + IMPORT_CHUNK_BYTES < file.size) next = piece(offset + IMPORT_CHUNK_BYTES);
      await api.importChunk({ uploadId, offset, dataBase64 });
    }
    return await api.importFinish({ uploadId });
  } catch (err) {
    next.catch(() => undefined);
    void api.importCancel({ uploadId }).catch(() => undefined);
    throw err;
  }
}

/** A piece of a file as base64: encoded by the browser (FileReader) where there is one, which is several times faster. */
async function base64Of(piece: Blob): Promise<string> {
  if (typeof FileReader === 'undefined') return toBase64(new Uint8Array(await piece.arrayBuffer()));
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(piece);
  });
  return url.slice(url.indexOf(',') + 1);
}
