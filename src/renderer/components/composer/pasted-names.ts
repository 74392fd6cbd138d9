/**
 * Names for images pasted from the clipboard. Chromium calls every one "image.png" (a screenshot, a picture copied
 * from a page), so three pasted screenshots were "image.png", "image (2).png" and "image (3).png" in the message
 * box, in the chat and to the model, and a later message's paste was "image.png" again. They are "Pasted image 1.png",
 * "Pasted image 2.png", … numbered on through the conversation, so each names one picture there.
 */
import type { Turn } from '../../../shared/turn';

/** What the clipboard calls a picture it holds as bytes, not as a file (a copied file keeps its own name). */
const CLIPBOARD_NAME = /^image\.[a-z0-9]{1,5}$/i;
const PASTED = /^Pasted image (\d+)(\.[^.]*)?$/;

const EXTENSION: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/gif': '.gif', 'image/webp': '.webp' };

/** Whether `file` is a picture the clipboard gave with no name of its own. */
export function unnamedPaste(file: File): boolean {
  return file.type.startsWith('image/') && (file.name === '' || CLIPBOARD_NAME.test(file.name));
}

/** The numbers "Pasted image N" already takes among `names`: the next paste goes after the highest. */
export function nextPastedNumber(names: Iterable<string>): number {
  let last = 0;
  for (const name of names) {
    const n = Number(PASTED.exec(name)?.[1] ?? 0);
    if (n > last) last = n;
  }
  return last + 1;
}

/** The files of a paste, each unnamed picture named "Pasted image N" after those `taken` has; other files as they came. */
export function namePastedImages(files: readonly File[], taken: Iterable<string>): File[] {
  let next = nextPastedNumber(taken);
  return files.map((file) => {
    if (!unnamedPaste(file)) return file;
    const dot = file.name.lastIndexOf('.');
    const extension = dot > 0 ? file.name.slice(dot).toLowerCase() : (EXTENSION[file.type] ?? '');
    // A new File over the same bytes: nothing is copied.
    return new File([file], `Pasted image ${next++}${extension}`, { type: file.type, lastModified: file.lastModified });
  });
}

/** The attachment names of a conversation's turns and of what waits to go with the next message. */
export function attachmentNames(turns: readonly Pick<Turn, 'blocks'>[], pending: readonly { name: string }[]): string[] {
  const names = pending.map((b) => b.name);
  for (const t of turns) for (const b of t.blocks) if (b.type === 'attachment') names.push(b.name);
  return names;
}
