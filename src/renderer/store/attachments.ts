/**
 * Attachments from the composer: bytes go to main's blob store once, and the message carries the returned
 * block by reference. Object URLs for thumbnails are cached by digest for the life of the window.
 */
import { ATTACHMENT_MAX_BYTES, attachmentTooLargeMessage } from '../../shared/file-limits';
import type { AttachmentBlock } from '../../shared/turn';
import { firebrand } from '../firebrand';

const urls = new Map<string, string>();
/** The only types a blob URL is made with: images whose signature main checked. Anything else is never given a URL. */
const DISPLAYABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const loading = new Map<string, Promise<string | null>>();

/** Code and text files that browsers report with no type or an odd one are sent as UTF-8 text. */
const TEXT_EXTENSIONS = /\.(txt|md|markdown|csv|tsv|log|json|jsonl|ya?ml|toml|ini|xml|css|scss|js|jsx|mjs|cjs|ts|tsx|py|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|sql|swift|lua|r|pl|ex|exs|hs|scala|vue|svelte)$/i;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
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

/** Stores one file; throws with main's message (too large, not what it claims to be) for the user. */
export async function addAttachment(file: File): Promise<AttachmentBlock> {
  const mime = mimeFor(file);
  const name = file.name || (mime.startsWith('image/') ? `pasted-image.${mime.split('/')[1] ?? 'png'}` : 'pasted-file');
  // Before a byte is read: a file this large would be refused by main with these words, or (over ~48 MB) would
  // not fit one serve-socket frame at all.
  if (file.size > ATTACHMENT_MAX_BYTES) throw new Error(attachmentTooLargeMessage(name, file.size));
  const bytes = new Uint8Array(await file.arrayBuffer());
  const block = await firebrand().attachments.add({ name, mime, dataBase64: toBase64(bytes) });
  if (block.kind === 'image' && DISPLAYABLE.has(block.mime)) urls.set(block.id, URL.createObjectURL(new Blob([bytes], { type: block.mime })));
  return block;
}

/** An object URL for an image attachment, fetched from main the first time it is shown. */
export function imageUrl(id: string): Promise<string | null> {
  const known = urls.get(id);
  if (known) return Promise.resolve(known);
  let pending = loading.get(id);
  if (!pending) {
    pending = firebrand()
      .attachments.get({ id })
      .then((data) => {
        // Main sends the type the bytes sniff as; a blob URL of any other type (SVG, HTML) could run script.
        if (!DISPLAYABLE.has(data.mime)) return null;
        const binary = atob(data.dataBase64);
        const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
        const url = URL.createObjectURL(new Blob([bytes], { type: data.mime }));
        urls.set(id, url);
        return url;
      })
      .catch(() => null)
      .finally(() => loading.delete(id));
    loading.set(id, pending);
  }
  return pending;
}

export function cachedImageUrl(id: string): string | undefined {
  return urls.get(id);
}
