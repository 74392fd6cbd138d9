/**
 * How the desktop app's save of an export ended. There the page's download opens Electron's save dialog, which the
 * user may cancel and whose write may fail, so the page says "Exported" only once the shell reports how it ended
 * (src/main/shell/download-outcome.ts). In serve mode the browser's own download is the save, and no such event
 * comes. Kept in its own file and merged into `EventContract` in ./ipc.ts.
 */

/** A download the page started (an export's file), as it ended in the desktop app. */
export interface ExportDone {
  /** The URL the page downloaded (the export's `blob:` URL): which export this was. */
  url: string;
  /** `completed`: the file is written; `cancelled`: the user closed the dialog; `interrupted`: writing it failed. */
  state: 'completed' | 'cancelled' | 'interrupted';
  /** The name of the file as saved (the user may have changed it in the dialog), or as offered where none was chosen. */
  fileName: string;
}

export interface ExportEventContract {
  /** Desktop app only: a download the window started ended (saved, cancelled or failed). */
  'conversations:export-done': ExportDone;
}

export const EXPORT_EVENT_CHANNELS = ['conversations:export-done'] as const satisfies readonly (keyof ExportEventContract)[];
