/**
 * Conversation files on their way in, a chunk at a time (`conversations:import-begin/chunk/finish`): a file as
 * large as Firebrand exports does not fit one IPC payload or serve-socket frame (64 MiB), so the renderer sends it
 * in IMPORT_CHUNK_BYTES pieces that are staged here, in memory, until the last one. An upload is discarded when
 * it fails, is cancelled, or hears nothing for `idleMs`; the total staged at once is bounded. A file refused for
 * what it is (empty, too large) is `invalid-payload`, which the page offers no Retry for; an upload refused for what
 * may pass (other imports in the way, bytes lost on the way) is `busy` or `conflict`, and Retry sends the file again.
 */
import { CONVERSATION_FILE_MAX_BYTES, formatSize, importFileTooLargeMessage } from '../../shared/file-limits';
import { UserFacingError } from '../errors';

interface Upload {
  /** The file's name, which its refusals say ("This file" where the page sent none). */
  name: string | undefined;
  size: number;
  received: number;
  chunks: Buffer[];
  timer: ReturnType<typeof setTimeout>;
}

export interface ImportUploadsOptions {
  newId: () => string;
  /** An upload that hears nothing for this long is dropped (the page was closed mid-upload). */
  idleMs?: number;
  /** The most bytes staged across uploads at once. */
  maxStagedBytes?: number;
}

/** The file as a refusal names it: "“tea.firebrand.json”", or "This file" where the page sent no name. */
const theFile = (name: string | undefined): string => (name ? `“${name}”` : 'This file');

/**
 * The words for a chunk or finish whose upload is gone (it waited too long, or failed earlier): "This import was
 * interrupted" did not say which file, with several imported one after another. Named as the other refusals name it.
 */
function gone(name: string | undefined): string {
  const what = name ? `The import of “${name}”` : 'This import';
  return `${what} was interrupted (it waited too long or failed), so nothing was imported. Import ${name ? 'it' : 'the file'} again.`;
}

/** How many ended uploads' names are kept for gone(): a few late chunks per import, never a growing list. */
const ENDED_NAMES_KEPT = 32;

export class ImportUploads {
  private readonly uploads = new Map<string, Upload>();
  /** The names of uploads that ended (taken, cancelled, dropped), so a late chunk's refusal can name its file. */
  private readonly ended = new Map<string, string | undefined>();
  private readonly idleMs: number;
  private readonly maxStagedBytes: number;

  constructor(private readonly options: ImportUploadsOptions) {
    this.idleMs = options.idleMs ?? 60_000;
    this.maxStagedBytes = options.maxStagedBytes ?? 2 * CONVERSATION_FILE_MAX_BYTES;
  }

  /** Starts an upload of a file of `size` bytes, or refuses it (too large, empty, too many at once). */
  begin(size: number, name?: string): { uploadId: string } {
    if (size === 0) throw new UserFacingError('invalid-payload', `${theFile(name)} is empty; there is nothing to import.`);
    if (size > CONVERSATION_FILE_MAX_BYTES) throw new UserFacingError('invalid-payload', importFileTooLargeMessage(name ?? 'This file', size));
    const staged = [...this.uploads.values()].reduce((sum, u) => sum + u.size, 0);
    if (staged + size > this.maxStagedBytes) {
      throw new UserFacingError('busy', `Other imports (${formatSize(staged)}) are still on their way in. Wait for them to finish, then import ${name ? `“${name}”` : 'this file'} again.`);
    }
    const uploadId = this.options.newId();
    this.uploads.set(uploadId, { name, size, received: 0, chunks: [], timer: this.expire(uploadId) });
    return { uploadId };
  }

  /** Adds the bytes at `offset`; chunks come in order, and never past the size begun with. */
  append(uploadId: string, offset: number, bytes: Buffer): { received: number } {
    const upload = this.require(uploadId);
    if (offset !== upload.received || upload.received + bytes.byteLength > upload.size || bytes.byteLength === 0) {
      this.cancel(uploadId);
      throw new UserFacingError('conflict', `${theFile(upload.name)} changed or arrived out of order while it was being imported, so nothing was imported. Import it again.`);
    }
    upload.chunks.push(bytes);
    upload.received += bytes.byteLength;
    clearTimeout(upload.timer);
    upload.timer = this.expire(uploadId);
    return { received: upload.received };
  }

  /** The whole file as text, and its name, once every byte came; the upload is gone either way. */
  take(uploadId: string): { text: string; name: string | undefined } {
    const upload = this.require(uploadId);
    this.cancel(uploadId);
    if (upload.received !== upload.size) {
      const of = upload.name ? `“${upload.name}”` : 'this file';
      throw new UserFacingError('conflict', `Only ${formatSize(upload.received)} of ${formatSize(upload.size)} of ${of} arrived, so nothing was imported. Import it again.`);
    }
    return { text: Buffer.concat(upload.chunks, upload.size).toString('utf8'), name: upload.name };
  }

  cancel(uploadId: string): boolean {
    const upload = this.uploads.get(uploadId);
    if (!upload) return false;
    clearTimeout(upload.timer);
    this.end(uploadId, upload.name);
    return true;
  }

  /** Bytes staged now (for tests and the log). */
  stagedBytes(): number {
    return [...this.uploads.values()].reduce((sum, u) => sum + u.received, 0);
  }

  private require(uploadId: string): Upload {
    const upload = this.uploads.get(uploadId);
    if (!upload) throw new UserFacingError('not-found', gone(this.ended.get(uploadId)));
    return upload;
  }

  private expire(uploadId: string): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      const upload = this.uploads.get(uploadId);
      if (upload) this.end(uploadId, upload.name);
    }, this.idleMs);
    timer.unref?.();
    return timer;
  }

  private end(uploadId: string, name: string | undefined): void {
    this.uploads.delete(uploadId);
    this.ended.set(uploadId, name);
    for (const oldest of this.ended.keys()) {
      if (this.ended.size <= ENDED_NAMES_KEPT) break;
      this.ended.delete(oldest);
    }
  }
}
