/**
 * Says to the page how a download it started ended. In the desktop app an export's download opens Electron's save
 * dialog: the page's "Exported …" came as the dialog opened, so a cancelled dialog still read "Exported" and a
 * failed write said nothing. The shell hands each of the window's downloads here (its session's `will-download`),
 * and the page hears `conversations:export-done` once the file is written, the dialog cancelled, or the write
 * failed. It imports nothing from electron at run time, so it is unit tested under Node with a fake item.
 */
import { basename } from 'node:path';
import type { DownloadItem } from 'electron';
import type { ExportDone } from '../../shared/export-ipc';

/** What the report needs of an Electron `DownloadItem`. */
export interface DownloadLike extends Pick<DownloadItem, 'getURL' | 'getFilename' | 'getSavePath'> {
  once(event: 'done', listener: (event: unknown, state: ExportDone['state']) => void): unknown;
}

/** Sends `conversations:export-done` for `item` once it ends, on the window's event path. */
export function reportDownloadOutcome(item: DownloadLike, send: (channel: 'conversations:export-done', payload: ExportDone) => void): void {
  // Read now: the item's URL is the page's, and stays so; the save path is known only once the dialog closed.
  const url = item.getURL();
  item.once('done', (_event, state) => {
    const savePath = item.getSavePath();
    send('conversations:export-done', { url, state, fileName: savePath ? basename(savePath) : item.getFilename() });
  });
}
