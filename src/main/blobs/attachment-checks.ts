/**
 * The checks every attachment passes before its bytes are stored, whether it came from the composer or from an
 * imported file (issue 15: an imported "image" that was an SVG with a script ran at the app's origin). One
 * function, so an import can never get a softer rule than an upload.
 */
import { ATTACHMENT_MAX_BYTES, attachmentTooLargeMessage } from '../../shared/file-limits';
import type { AttachmentBlock } from '../../shared/turn';
import { UserFacingError } from '../errors';
import { attachmentKind, binaryInText, checkClaimedType, DOCX_MIME, isText, sniffMime, SUPPORTED_IMAGE_TYPES } from './sniff';

export const DEFAULT_MAX_ATTACHMENT_BYTES = ATTACHMENT_MAX_BYTES;
export { formatSize } from '../../shared/file-limits';
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
// C0/C1 controls and the bidi embeddings/overrides/isolates that make `gnp.exe` read as `exe.png`.
const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The name an attachment is shown and exported under. It is only ever text (the bytes live under their digest,
 * never under this name), so path separators and `..` stay as typed; invisible characters that could spoof or
 * break a line are replaced.
 */
export function displayName(name: string): string {
  const clean = name.replace(UNSAFE_NAME_CHARS, '_').trim().slice(0, 500);
  return clean === '' ? 'attachment' : clean;
}

/**
 * What an attachment may be stored as, or a refusal with a message for the user: over the size limit, empty,
 * a type that is not a plain media type, or bytes that are not what the type claims (a `.png` that is not a
 * PNG, a `.txt` that holds binary data; SVG and other image types are refused outright).
 */
export function checkAttachment(
  bytes: Uint8Array,
  claim: { name: string; mime: string },
  maxBytes = DEFAULT_MAX_ATTACHMENT_BYTES,
): Pick<AttachmentBlock, 'name' | 'mime' | 'kind' | 'size'> {
  const name = displayName(claim.name);
  if (bytes.byteLength > maxBytes) {
    throw new UserFacingError('invalid-payload', attachmentTooLargeMessage(name, bytes.byteLength, maxBytes));
  }
  // An empty file has nothing for a model to read; attaching it would only send a blank part (issue 9).
  if (bytes.byteLength === 0) throw new UserFacingError('invalid-payload', `“${name}” is empty; there is nothing to attach.`);
  const claimed = claim.mime.toLowerCase();
  // The mime travels into the UI, the wire and Markdown exports: only a plain `type/subtype` token is kept.
  if (!MIME.test(claimed)) throw new UserFacingError('invalid-payload', `“${name}” cannot be attached: its type is not a valid media type.`);
  const mime = readableAs(bytes, claimed);
  const kind = attachmentKind(mime);
  // Text holding NULs (a binary renamed .txt, UTF-16 with no byte-order mark) passes checkClaimedType, which files
  // stored before this check still meet when read; on the way in, an upload's or an import's, it is refused.
  const mismatch = checkClaimedType(bytes, mime) ?? (kind === 'text' ? binaryInText(bytes) : undefined);
  if (mismatch) throw new UserFacingError('invalid-payload', `“${name}” cannot be attached: ${mismatch}.`);
  return { name, mime, kind, size: bytes.byteLength };
}

/**
 * Whether `mime` is a type these bytes may be read as: the type an upload claiming it would be stored under, and
 * one the bytes pass (an image or PDF its signature, text valid UTF-8). The same bytes can hold for several types
 * (a page's source as `text/html` and as `text/plain`): each attachment is then read as its own (attachments
 * audit #3), while a claim the bytes do not bear out (a PNG said to be a PDF, text said to be an image) is not.
 */
export function bytesHoldAs(bytes: Uint8Array, mime: string): boolean {
  return MIME.test(mime) && readableAs(bytes, mime) === mime && checkClaimedType(bytes, mime) === undefined;
}

/**
 * The type the bytes are read as, where the claim (which the renderer takes from the file's name) would refuse
 * what can be read (attachments audit #5, #10): a WebP saved as `.jpg`, a PNG named `.jpg`, and an image or PDF
 * with no extension go as what their signature says; a file of no known type that is UTF-8 text with no NUL (a
 * Makefile, a Dockerfile, `.env.example`, `.tex`, `LICENSE`) goes as text, and a PDF or image named as text goes
 * as what its signature says. The name stays as the user gave it.
 */
const isTextType = (mime: string) => mime.startsWith('text/') || mime === 'application/json';

function readableAs(bytes: Uint8Array, claimed: string): string {
  const sniffed = sniffMime(bytes);
  // Only among the image types read: bytes claiming SVG stay refused, whatever they are.
  if (SUPPORTED_IMAGE_TYPES.includes(claimed) && sniffed?.startsWith('image/')) return sniffed;
  // Every zip carries a .docx's signature (a .zip, an .xlsx): a file of no known type is not taken for one.
  if (claimed === 'application/octet-stream') return (sniffed !== DOCX_MIME ? sniffed : undefined) ?? (isText(bytes) ? 'text/plain' : claimed);
  // A PDF or an image named as text (`report.txt` that is a PDF) is read as what it is; it was refused as "not
  // UTF-8 text; save it as UTF-8", which no editor can do for a PDF (documents audit). Zip-based types (DOCX) are
  // left out: every zip carries that signature.
  if (isTextType(claimed) && (sniffed === 'application/pdf' || sniffed?.startsWith('image/'))) return sniffed;
  return claimed;
}
