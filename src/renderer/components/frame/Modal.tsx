import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { keepTabInside } from './focus-wrap';


interface Props {
  label: string;
  /** The id of what a screen reader says after the label as the dialog opens (its aria-describedby). */
  describedBy?: string | undefined;
  testId?: string;
  className?: string;
  /** Escape, the close button, or a backdrop click (`backdrop`) asks to close; the owner decides. */
  onClose: (how: 'escape' | 'backdrop') => void;
  children: ReactNode;
}

/**
 * A native modal <dialog>: it takes the focus, keeps Tab inside (the rest of the page is inert), closes on
 * Escape wherever the focus is, tells a click on the backdrop apart from one inside it, and gives the focus back
 * to what opened it.
 */
export function Modal({ label, describedBy, testId, className, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // What had the focus when it opened (read before the dialog takes it): the focus goes back there on close.
  const [opener] = useState(() => document.activeElement);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      // A layout cleanup runs while the dialog is still in the page (a passive one ran after React had removed
      // it, and the focus fell to <body>: the next Tab started over at the top). Closed, the page is no longer
      // inert and the opener can take the focus back, where it is still there to take it.
      dialog?.close();
      if (opener instanceof HTMLElement && opener.isConnected && opener.checkVisibility({ visibilityProperty: true })) opener.focus();
    };
  }, [opener]);
  return (
    <dialog
      ref={ref}
      className={`modal${className ? ` ${className}` : ''}`}
      aria-label={label}
      aria-describedby={describedBy}
      data-testid={testId}
      onCancel={(e) => {
        // Escape: the owner closes (React unmounts it), so its state and the dialog never disagree.
        e.preventDefault();
        close.current('escape');
      }}
      onKeyDown={(e) => {
        // Handled here, so the app-wide Escape (stop the answer) leaves it alone. Not while an input method
        // composes: there Escape cancels the conversion, not the dialog.
        if (e.nativeEvent.isComposing) return;
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          close.current('escape');
        } else if (ref.current) {
          // The page behind is inert; past the last field Tab comes back to the first (not to the browser's bar).
          keepTabInside(ref.current, e);
        }
      }}
      onMouseDown={(e) => {
        if (e.target !== ref.current) return;
        const box = ref.current.getBoundingClientRect();
        const inside = e.clientX >= box.left && e.clientX <= box.right && e.clientY >= box.top && e.clientY <= box.bottom;
        if (!inside) close.current('backdrop');
      }}
    >
      {children}
    </dialog>
  );
}
