import { useCallback, useState } from 'react';
import type { PageRange } from '../../../shared/attachment-text';
import { FirebrandError } from '../../../shared/ipc';
import type { AttachmentBlock } from '../../../shared/turn';
import { addAttachment } from '../../store/attachments';
import { forgetUnreadable } from '../../store/attachment-costs';
import { keepAttachmentFor } from '../../store/drafts';
import { REFUSED, retryWith, showNotice, useStore } from '../../store';
import { errorMessage } from '../../store/errors';

/** The composer's pending attachments: each file is stored in main as soon as it is picked, dropped or pasted. */
export function useAttachments(initial: AttachmentBlock[] = []) {
  const [items, setItems] = useState<AttachmentBlock[]>(initial);
  const [busy, setBusy] = useState(0);

  const add = useCallback(async function attach(files: Iterable<File>): Promise<void> {
    const failed: File[] = [];
    // Each refused file's message (each names its file): one notice says them all. Before, each replaced the one
    // before it, and of several files refused at once only the last was named.
    const refusals: string[] = [];
    // The conversation these files were attached in: storing a large one takes seconds, and the user may move on.
    const attachedIn = useStore.getState().activeId;
    for (const file of files) {
      setBusy((n) => n + 1);
      try {
        const block = await addAttachment(file);
        // Attached again after its reading failed: read again (a timeout need not repeat).
        forgetUnreadable(block.id);
        if (useStore.getState().activeId !== attachedIn) {
          keepAttachmentFor(attachedIn, block);
          continue;
        }
        setItems((list) => pendingWith(list, block));
      } catch (err) {
        if (worthRetrying(err)) failed.push(file);
        refusals.push(errorMessage(err));
      } finally {
        setBusy((n) => n - 1);
      }
    }
    if (refusals.length === 0) return;
    // Retry attaches again the files that failed, which the page still holds (full-disk audit, round 9: Retry
    // only re-read the lists, and a pasted image was gone with nothing on the user's disk to pick again). Files
    // refused for what they are (too large) have nothing to retry: their notice has Close only.
    showNotice(refusedFilesMessage(refusals), failed.length > 0 ? retryWith(() => void attach(failed)) : REFUSED);
  }, []);
  const remove = useCallback((block: AttachmentBlock) => setItems((list) => list.filter((b) => !sameAttachment(b, block))), []);
  const clear = useCallback(() => setItems([]), []);
  /** Another conversation's pending attachments (its draft, drafts.ts). */
  const replace = useCallback((list: AttachmentBlock[]) => setItems(list), []);
  /** The pages of a PDF to send (undefined: all); the block carries them, so the turn keeps what was sent. */
  const setPages = useCallback((block: AttachmentBlock, pages: PageRange | undefined) => {
    setItems((list) =>
      list.map((b) => {
        if (!sameAttachment(b, block)) return b;
        const { pages: _old, ...rest } = b;
        return pages ? { ...rest, pages } : rest;
      }),
    );
  }, []);
  return { items, busy: busy > 0, add, remove, clear, replace, setPages };
}

/**
 * A failure that trying the same file again can get past (a full disk, made room on): not a refusal of the file
 * itself (too large, empty, not what it claims), nor the read-only start, which lasts until a restart.
 */
export function worthRetrying(err: unknown): boolean {
  return err instanceof FirebrandError && err.code !== 'invalid-payload' && !useStore.getState().settings?.readOnly;
}

/** One pending attachment: its bytes (digest) under its name. */
export function sameAttachment(a: AttachmentBlock, b: AttachmentBlock): boolean {
  return a.id === b.id && a.name === b.name;
}

/**
 * The pending list with `block` added. The same bytes under another name are another attachment to the model (it
 * reads each name), stored once; the same file twice is one. Another file under a name already in the list gets
 * "name (2).ext": the model read both as <file name="notes.txt"> and could not tell them apart (documents audit).
 */
export function pendingWith(list: AttachmentBlock[], block: AttachmentBlock): AttachmentBlock[] {
  if (list.some((b) => sameAttachment(b, block))) return list;
  const taken = new Set(list.map((b) => b.name));
  if (!taken.has(block.name)) return [...list, block];
  const dot = block.name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [block.name.slice(0, dot), block.name.slice(dot)] : [block.name, ''];
  // The same file again, after it was named "name (2).ext" here, is that attachment still.
  if (list.some((b) => b.id === block.id && b.name.startsWith(`${stem} (`) && /^ \(\d+\)$/.test(b.name.slice(stem.length, b.name.length - ext.length)) && b.name.endsWith(ext))) return list;
  let n = 2;
  while (taken.has(`${stem} (${n})${ext}`)) n++;
  return [...list, { ...block, name: `${stem} (${n})${ext}` }];
}

/** A key for a pending attachment's chip, unique where `sameAttachment` is. */
export function attachmentKey(b: AttachmentBlock): string {
  return `${b.id}|${b.name}`;
}

/** One notice for the files refused at once: each one's message (which names it), one to a line. */
export function refusedFilesMessage(refusals: string[]): string {
  const distinct = [...new Set(refusals)];
  return distinct.length === 1 ? distinct[0]! : [`${distinct.length} files were not attached:`, ...distinct].join('\n');
}
