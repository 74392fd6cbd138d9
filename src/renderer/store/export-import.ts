/** Saving a conversation to a file and reading one back: the bytes never touch the renderer's storage. */
import { firebrand } from '../firebrand';
import { fail, openConversation } from '.';

/** Asks main for the file and hands it to the browser's (or Electron's) save flow. */
export async function exportConversationFile(conversationId: string, format: 'json' | 'markdown'): Promise<void> {
  try {
    const file = await firebrand().conversations.export({ conversationId, format });
    const url = URL.createObjectURL(new Blob([file.text], { type: file.mime }));
    const a = document.createElement('a');
    a.href = url;
    a.download = file.fileName;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    fail(err, () => void exportConversationFile(conversationId, format));
  }
}

/** Imports a Firebrand export file and opens it; a refused file says why and nothing is written. */
export async function importConversationFile(file: File): Promise<void> {
  try {
    const { conversationId } = await firebrand().conversations.import({ text: await file.text() });
    await openConversation(conversationId);
  } catch (err) {
    // Retry: the same file again (it may have been refused for a reason since fixed, such as a full disk).
    fail(err, () => void importConversationFile(file));
  }
}
