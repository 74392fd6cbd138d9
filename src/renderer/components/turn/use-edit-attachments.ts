import { useCallback, useRef, useState, type DragEvent } from 'react';
import type { AttachmentBlock } from '../../../shared/turn';
import { REFUSED, retryWith, showNotice } from '../../store';
import { addAttachment } from '../../store/attachments';
import { forgetUnreadable } from '../../store/attachment-costs';
import { errorMessage } from '../../store/errors';
import { pendingWith, refusedFilesMessage, sameAttachment, worthRetrying } from '../composer/use-attachments';

/**
 * Files added to a message being edited (one forgotten when it was sent): each is stored in main as the composer
 * stores one (addAttachment), refused with the same words, and named apart from the files the message keeps
 * (`kept`). They go with the edit kept across a reload (store/edit-drafts.ts, `restored`: those it came back with);
 * a cancelled edit drops them as the composer drops a removed file.
 */
export function useEditAttachments(kept: AttachmentBlock[], restored: AttachmentBlock[] = []) {
  const [added, setAdded] = useState<AttachmentBlock[]>(restored);
  const [busy, setBusy] = useState(0);
  const keptNow = useRef(kept);
  keptNow.current = kept;

  const add = useCallback(async function attach(files: Iterable<File>): Promise<void> {
    const failed: File[] = [];
    const refusals: string[] = [];
    for (const file of files) {
      setBusy((n) => n + 1);
      try {
        const block = await addAttachment(file);
        forgetUnreadable(block.id);
        setAdded((list) => {
          const base = keptNow.current;
          return pendingWith([...base, ...list], block).slice(base.length);
        });
      } catch (err) {
        if (worthRetrying(err)) failed.push(file);
        refusals.push(errorMessage(err));
      } finally {
        setBusy((n) => n - 1);
      }
    }
    if (refusals.length > 0) showNotice(refusedFilesMessage(refusals), failed.length > 0 ? retryWith(() => void attach(failed)) : REFUSED);
  }, []);
  const remove = useCallback((at: number) => setAdded((list) => list.filter((_, i) => i !== at)), []);
  const clear = useCallback(() => setAdded([]), []);
  /** Takes out files main no longer has (an edit kept across a reload, whose files were swept meanwhile). */
  const drop = useCallback((gone: readonly AttachmentBlock[]) => setAdded((list) => list.filter((b) => !gone.some((g) => sameAttachment(g, b)))), []);
  return { added, busy: busy > 0, add, remove, clear, drop, ...useEditDrop(add) };
}

/**
 * Files dropped on the edit form go with the edit, not to the message box: the form handles the drag first, which
 * the window-wide drop (composer/use-file-drop.ts) leaves alone and then hides its "Drop files to attach them"
 * overlay, and `dropping` says a drag is over the form, which is drawn as the place the files go. Before, the
 * overlay stayed up over the form and told the user the file went to the message box.
 */
function useEditDrop(add: (files: File[]) => Promise<void>) {
  const [dropping, setDropping] = useState(false);
  const carriesFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');
  const onDragOver = useCallback((e: DragEvent) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDropping(true);
  }, []);
  // Leaving for one of the form's own parts is not leaving it (dragleave fires as the pointer crosses each).
  const onDragLeave = useCallback((e: DragEvent) => {
    if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setDropping(false);
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      setDropping(false);
      if (!carriesFiles(e)) return;
      e.preventDefault();
      void add([...e.dataTransfer.files]);
    },
    [add],
  );
  return { dropping, dropZone: { onDragOver, onDragEnter: onDragOver, onDragLeave, onDrop } };
}
