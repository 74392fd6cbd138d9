import { useEffect, useState } from 'react';

/**
 * Files dropped anywhere in the window are attached to the message (not only on the composer). A place with its
 * own drop (the model library takes .gguf files) handles the event first and marks it handled; a drop while a
 * dialog is open attaches nothing, and is still kept from the browser, which would open the file in place of the
 * app (serve mode) or leave the page (documents audit). Returns whether files are being dragged over the window
 * where a drop would attach them to the message.
 */
export function useFileDrop(add: (files: File[]) => Promise<void>): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const carriesFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') === true;
    const inDialog = () => document.querySelector('dialog[open]') !== null;
    const over = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      // Over a place with its own drop (the edit form, the model library) the files go there: the overlay, which
      // says they go to the message box, is not shown (the place shows itself as the target).
      if (e.defaultPrevented) return setDragging(false);
      e.preventDefault();
      if (inDialog()) {
        if (e.dataTransfer) e.dataTransfer.dropEffect = 'none';
        return;
      }
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    // relatedTarget is null only when the drag leaves the window itself.
    const leave = (e: DragEvent) => e.relatedTarget === null && setDragging(false);
    const drop = (e: DragEvent) => {
      setDragging(false);
      if (!carriesFiles(e) || e.defaultPrevented) return;
      e.preventDefault();
      if (inDialog()) return;
      void add([...(e.dataTransfer?.files ?? [])]);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [add]);
  return dragging;
}
