/**
 * Attachments from the composer: bytes go to main's blob store once, and the message carries the returned
 * block by reference. The thumbnails' object URLs are in ./image-urls.ts.
 */
import { ATTACHMENT_MAX_BYTES, attachmentTooLargeMessage } from '../../shared/file-limits';
import { DOCX_MIME as DOCX, unreadableBinary, unreadableByType, unreadableTypeMessage } from '../../shared/readable-types';
import type { AttachmentBlock } from '../../shared/turn';
import { firebrand } from '../firebrand';
import { keepImageBytes } from './image-urls';

/** Code and text files that browsers report with no type or an odd one are sent as UTF-8 text. */
const TEXT_EXTENSIONS = /\.(txt|md|markdown|csv|tsv|log|json|jsonl|ya?ml|toml|ini|xml|css|scss|js|jsx|mjs|cjs|ts|tsx|py|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|sql|swift|lua|r|pl|ex|exs|hs|scala|vue|svelte)$/i;
/** Types main reads with their own extractor (src/main/documents): kept as they are. */
const KEPT = new Set(['application/pdf', 'application/json', DOCX, 'text/html', 'text/markdown', 'text/csv']);

export function mimeFor(file: File): string {
  if (file.type.startsWith('image/') || KEPT.has(file.type)) return file.type;
  if (/\.html?$/i.test(file.name)) return 'text/html';
  if (/\.docx$/i.test(file.name)) return DOCX;
  if (/\.pdf$/i.test(file.name)) return 'application/pdf';
  if (file.type.startsWith('text/') || TEXT_EXTENSIONS.test(file.name)) return 'text/plain';
  return file.type || 'application/octet-stream';
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

/**
 * The bytes of a file of no known type looked at before it is uploaded: a NUL among them says binary (main reads
 * the whole file the same way).
 */
const HEAD_BYTES = 4096;

/** Stores one file; throws with main's message (too large, not what it claims to be) for the user. */
export async function addAttachment(file: File): Promise<AttachmentBlock> {
  const mime = mimeFor(file);
  const name = file.name || (mime.startsWith('image/') ? `pasted-image.${mime.split('/')[1] ?? 'png'}` : 'pasted-file');
  // A type Firebrand cannot read (a .zip, a .doc, an .xlsx, a program) is refused here, in main's words, before a
  // byte is uploaded: it went whole to main to be refused there. Before the size check: a 300 MB .zip is refused for
  // its type, which no smaller .zip would mend, not for its size.
  if (await unreadable(file, mime)) throw new Error(unreadableTypeMessage(name));
  // Before a byte is read: a file this large would be refused by main with these words, or (over ~48 MB) would
  // not fit one serve-socket frame at all.
  if (file.size > ATTACHMENT_MAX_BYTES) throw new Error(attachmentTooLargeMessage(name, file.size));
  // A folder (dropped, or picked with files) cannot be read: the browser's words named neither it nor that (attachments audit #9).
  const bytes = new Uint8Array(
    await file.arrayBuffer().catch(() => {
      throw new Error(`“${name}” could not be read. If it is a folder, attach the files in it instead.`);
    }),
  );
  const block = await firebrand().attachments.add({ name, mime, dataBase64: toBase64(bytes) });
  if (block.kind === 'image') keepImageBytes(block.id, bytes, block.mime);
  return block;
}

/**
 * Whether main would refuse `file`, claimed as `mime`, for its type (shared/readable-types.ts): by its type alone,
 * or, for a file of no known type, by its first bytes. A head that cannot be read (a folder) is left to the read
 * that says so.
 */
async function unreadable(file: File, mime: string): Promise<boolean> {
  if (unreadableByType(mime)) return true;
  if (mime !== 'application/octet-stream') return false;
  const head = await file.slice(0, HEAD_BYTES).arrayBuffer().catch(() => undefined);
  return head !== undefined && unreadableBinary(new Uint8Array(head));
}
