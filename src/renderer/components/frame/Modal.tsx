import { useEffect, useRef, type ReactNode } from 'react';

const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), a[href], summary, [tabindex]:not([tabindex="-1"])';

interface Props {
  label: string;
  testId?: string;
  className?: string;
  /** Escape, the close button, or a backdrop click (`backdrop`) asks to close; the owner decides. */
  onClose: (how: 'escape' | 'backdrop') => void;
  children: ReactNode;
}

/**
 * A native modal <dialog>: it takes the focus, keeps Tab inside (the rest of the page is inert), closes on
 * Escape wherever the focus is, and tells a click on the backdrop apart from one inside it.
 */
export function Modal({ label, testId, className, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={`modal${className ? ` ${className}` : ''}`}
      aria-label={label}
      data-testid={testId}
      onCancel={(e) => {
        // Escape: the owner closes (React unmounts it), so its state and the dialog never disagree.
        e.preventDefault();
        close.current('escape');
      }}
      onKeyDown={(e) => {
        // Handled here, so the app-wide Escape (stop the answer) leaves it alone.
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          close.current('escape');
        } else if (e.key === 'Tab' && ref.current) {
          // The page behind is inert; past the last field Tab comes back to the first (not to the browser's bar).
          const focusable = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.checkVisibility());
          const first = focusable[0];
          const last = focusable.at(-1);
          if (!first || !last) return;
          if (!e.shiftKey && document.activeElement === last) {
            e.preventDefault();
            first.focus();
          } else if (e.shiftKey && document.activeElement === first) {
            e.preventDefault();
            last.focus();
          }
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
