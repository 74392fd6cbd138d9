import { useCallback, useState } from 'react';
import type { PageRange } from '../../../shared/attachment-text';
import type { AttachmentBlock } from '../../../shared/turn';
import { addAttachment } from '../../store/attachments';
import { useStore } from '../../store';

/** The composer's pending attachments: each file is stored in main as soon as it is picked, dropped or pasted. */
export function useAttachments(initial: AttachmentBlock[] = []) {
  const [items, setItems] = useState<AttachmentBlock[]>(initial);
  const [busy, setBusy] = useState(0);

  const add = useCallback(async (files: Iterable<File>) => {
    for (const file of files) {
      setBusy((n) => n + 1);
      try {
        const block = await addAttachment(file);
        // The same bytes under another name are another attachment to the model (it reads each name), stored once.
        setItems((list) => (list.some((b) => sameAttachment(b, block)) ? list : [...list, block]));
      } catch (err) {
        useStore.setState({ notice: err instanceof Error ? err.message : String(err) });
      } finally {
        setBusy((n) => n - 1);
      }
    }
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

/** One pending attachment: its bytes (digest) under its name. */
export function sameAttachment(a: AttachmentBlock, b: AttachmentBlock): boolean {
  return a.id === b.id && a.name === b.name;
}

/** A key for a pending attachment's chip, unique where `sameAttachment` is. */
export function attachmentKey(b: AttachmentBlock): string {
  return `${b.id}|${b.name}`;
}
