/**
 * The sizes a file may have on its way in or out, shared by main (which enforces them) and the renderer (which
 * checks a picked file before reading it), so both say the same sentence with the same numbers.
 */

/** The largest attachment the blob store keeps. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * The largest conversation file (JSON export) Firebrand writes, and so the largest it reads back: an export over
 * it is refused, so every file Firebrand writes imports. Bounded by what carries the file whole: the export goes
 * to the renderer as one string, which in Electron IPC costs two bytes a character for text outside Latin-1 (under
 * Chromium's 256 MiB message limit), and in serve mode as one JSON frame where quotes are escaped again (at most
 * twice its length, under V8's ~512 MiB string limit). Imports travel in chunks (IMPORT_CHUNK_BYTES).
 */
export const CONVERSATION_FILE_MAX_BYTES = 100 * 1024 * 1024;

/**
 * The bytes of a conversation file per `conversations:import-chunk`: ~5.6 MB of base64, far under the serve
 * socket's 64 MiB frame limit (src/main/serve/serve-socket.ts).
 */
export const IMPORT_CHUNK_BYTES = 4 * 1024 * 1024;

/** The base64 characters `bytes` bytes encode to. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function attachmentTooLargeMessage(name: string, size: number, maxBytes = ATTACHMENT_MAX_BYTES): string {
  // Just over the limit both round to one figure ("20.0 MB; … at most 20.0 MB"), which reads as no reason at all.
  const [is, most] = formatSize(size) === formatSize(maxBytes) ? [bytes(size), bytes(maxBytes)] : [formatSize(size), formatSize(maxBytes)];
  return `“${name}” is ${is}; an attachment can be at most ${most}.`;
}

const bytes = (n: number) => `${n.toLocaleString('en-US')} bytes`;

export function importFileTooLargeMessage(name: string, size: number): string {
  return `“${name}” is ${formatSize(size)}; Firebrand can import a conversation file of at most ${formatSize(CONVERSATION_FILE_MAX_BYTES)}. Nothing was imported.`;
}

export function exportTooLargeMessage(size: number, estimate: boolean): string {
  return (
    `This conversation would be ${estimate ? 'about ' : ''}${formatSize(size)} as a file; Firebrand exports and imports conversation files of at most ` +
    `${formatSize(CONVERSATION_FILE_MAX_BYTES)}, so it was not exported. Its current branch can still be exported as Markdown (without the attachments’ bytes).`
  );
}
