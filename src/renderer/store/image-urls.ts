/**
 * Object URLs for image attachments, by digest: made once and shared by every place that shows the image (the
 * same picture in two turns, its composer chip, the lightbox), and revoked once nothing shows it any more. Each
 * URL keeps its image's bytes alive in the page: kept for the life of the window, a long session of pasted
 * screenshots and chats opened one after another held every image it had shown (tens of megabytes per dozen
 * photos) until the tab closed. A URL is kept while something on screen holds it (`holdImageUrl`) or a turn of
 * the open chat names its image (scrolled out of the list, it comes back without asking main again); otherwise
 * the next sweep revokes it, and the image is read from main's blob store if it is shown again.
 */
import type { Turn } from '../../shared/turn';
import { firebrand } from '../firebrand';

/** The only types a blob URL is made with: images whose signature main checked. Anything else is never given a URL. */
export const DISPLAYABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const urls = new Map<string, string>();
const holders = new Map<string, number>();
/** Made from bytes the composer just stored, not held yet (when): its chip holds it as it mounts. */
const fresh = new Map<string, number>();
/** How long a fresh URL waits for its chip: one added twice (a chip already shows it) is never held again. */
const FRESH_MS = 10_000;
const loading = new Map<string, Promise<string | null>>();
/** Whether the turns in view name an image (set by connectImageUrls; nothing before the store is connected). */
let inView: (id: string) => boolean = () => false;
let sweepQueued = false;

/** A URL for bytes this page has in hand (a file just attached); shown next by the composer's chip. */
export function keepImageBytes(id: string, bytes: Uint8Array<ArrayBuffer>, mime: string): void {
  if (!DISPLAYABLE.has(mime)) return;
  if (!urls.has(id)) urls.set(id, URL.createObjectURL(new Blob([bytes], { type: mime })));
  fresh.set(id, Date.now());
}

/** An object URL for an image attachment, read from main the first time it is shown. */
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
        const made = urls.get(id);
        if (made) return made;
        const binary = atob(data.dataBase64);
        const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
        const url = URL.createObjectURL(new Blob([bytes], { type: data.mime }));
        urls.set(id, url);
        // Its holder may have gone while main read it.
        queueSweep();
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

/** Something on screen shows image `id` from now on; the returned function says it no longer does. */
export function holdImageUrl(id: string): () => void {
  holders.set(id, (holders.get(id) ?? 0) + 1);
  fresh.delete(id);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    const left = (holders.get(id) ?? 1) - 1;
    if (left > 0) holders.set(id, left);
    else holders.delete(id);
    queueSweep();
  };
}

/** Revokes every URL that nothing holds and no turn in view names. */
export function sweepImageUrls(): void {
  sweepQueued = false;
  for (const [id, url] of urls) {
    if (holders.has(id) || inView(id) || Date.now() - (fresh.get(id) ?? -Infinity) < FRESH_MS) continue;
    fresh.delete(id);
    URL.revokeObjectURL(url);
    urls.delete(id);
  }
}

/** A sweep once the current task is over: a chip moved from one list to another is released, then held again. */
function queueSweep(): void {
  if (sweepQueued) return;
  sweepQueued = true;
  setTimeout(sweepImageUrls, 0);
}

/**
 * Keeps the URLs of the images the turns in view name (`turns`, read again whenever `subscribe` says they changed),
 * and sweeps when one is no longer named: a chat closed lets its images go.
 */
export function connectImageUrls(turns: () => readonly Turn[], subscribe: (changed: () => void) => void): void {
  let named = imagesIn(turns());
  inView = (id) => named.has(id);
  subscribe(() => {
    const before = named;
    named = imagesIn(turns());
    for (const id of before) if (!named.has(id)) return queueSweep();
  });
}

/** The attachments the turns name (a user's pictures, a tool's images): their digests. */
function imagesIn(turns: readonly Turn[]): Set<string> {
  const ids = new Set<string>();
  for (const t of turns) for (const b of t.blocks) if (b.type === 'attachment' && b.kind === 'image') ids.add(b.id);
  return ids;
}

/** How many image URLs the page holds now. */
export function liveImageUrlCount(): number {
  return urls.size;
}
