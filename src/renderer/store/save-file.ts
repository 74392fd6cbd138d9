/**
 * Hands a file the page made (an export) to the save. In a browser (serve mode) the page's download is the save,
 * done as it starts. In the desktop app the download opens the shell's save dialog, so the answer waits for how it
 * ended, which the shell reports (`conversations:export-done`, src/main/shell/download-outcome.ts): the page said
 * "Exported" as the dialog opened, and a cancelled dialog still read "Exported" while a failed write said nothing.
 */
import type { ExportDone } from '../../shared/export-ipc';
import { firebrand, inDesktopApp } from '../firebrand';

/** How a save ended: `downloaded` where the browser's download was the save (serve mode); else the shell's word. */
export type SaveOutcome = { state: 'downloaded'; fileName: string } | ExportDone;

/** A browser revokes a download's URL once it has read it; it has long done so 10 s after the click. */
const BROWSER_READ_MS = 10_000;

export function saveFile(file: { fileName: string; mime: string; text: string }): Promise<SaveOutcome> {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mime }));
  if (!inDesktopApp()) {
    try {
      download(url, file.fileName);
    } finally {
      setTimeout(() => URL.revokeObjectURL(url), BROWSER_READ_MS);
    }
    return Promise.resolve({ state: 'downloaded', fileName: file.fileName });
  }
  return new Promise<SaveOutcome>((resolve) => {
    // Listening before the click: the shell's report names this download by its URL.
    const stop = firebrand().conversations.onExportDone((done) => {
      if (done.url !== url) return;
      stop();
      // The file stays readable for as long as the dialog is open, however long that is.
      URL.revokeObjectURL(url);
      resolve(done);
    });
    try {
      download(url, file.fileName);
    } catch (err) {
      stop();
      URL.revokeObjectURL(url);
      throw err;
    }
  });
}

function download(url: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
