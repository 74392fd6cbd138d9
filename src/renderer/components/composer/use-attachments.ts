import { useCallback, useState } from 'react';
import type { PageRange } from '../../../shared/attachment-text';
import type { AttachmentBlock } from '../../../shared/turn';
import { addAttachment } from '../../store/attachments';
import { useStore } from '../../store';

/** The composer's pending attachments: each file is stored in main as soon as it is picked, dropped or pasted. */
export function useAttachments() {
  const [items, setItems] = useState<AttachmentBlock[]>([]);
  const [busy, setBusy] = useState(0);

  const add = useCallback(async (files: Iterable<File>) => {
    for (const file of files) {
      setBusy((n) => n + 1);
      try {
        const block = await addAttachment(file);
        setItems((list) => (list.some((b) => b.id === block.id) ? list : [...list, block]));
      } catch (err) {
        useStore.setState({ notice: err instanceof Error ? err.message : String(err) });
      } finally {
        setBusy((n) => n - 1);
      }
    }
  }, []);
  const remove = useCallback((id: string) => setItems((list) => list.filter((b) => b.id !== id)), []);
  const clear = useCallback(() => setItems([]), []);
  /** The pages of a PDF to send (undefined: all); the block carries them, so the turn keeps what was sent. */
  const setPages = useCallback((id: string, pages: PageRange | undefined) => {
    setItems((list) =>
      list.map((b) => {
        if (b.id !== id) return b;
        const { pages: _old, ...rest } = b;
        return pages ? { ...rest, pages } : rest;
      }),
    );
  }, []);
  return { items, busy: busy > 0, add, remove, clear, setPages };
}
