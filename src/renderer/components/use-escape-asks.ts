import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';

export interface EscapeAsks {
  /** The "Discard your changes…?" question is shown in the place of the form's buttons. */
  asking: boolean;
  /** The question's Keep editing button: it takes the focus as the question comes. */
  keepButton: RefObject<HTMLButtonElement | null>;
  /** Keep editing: the question goes, and the focus back to the field it was asked from. */
  keepEditing: () => void;
  /** The form's own keydown: Escape closes it, asking first where it was changed, and never reaches the dialog. */
  onKeyDown: (e: KeyboardEvent<HTMLElement>) => void;
}

/**
 * Escape in a form inside Settings (a connection's editor, a tool server's form) closes that form, and asks before it
 * throws away what was typed, as Settings and a message's edit do: Escape went up to the dialog, which closed the
 * editor at once or asked about the whole of Settings. Escape on the question is Keep editing, so a second stray
 * Escape loses nothing either.
 */
export function useEscapeAsks(changed: boolean, onDone: () => void): EscapeAsks {
  const [asking, setAsking] = useState(false);
  const askedFrom = useRef<HTMLElement | null>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) keepButton.current?.focus();
  }, [asking]);
  const keepEditing = () => {
    setAsking(false);
    const from = askedFrom.current;
    if (from?.isConnected) requestAnimationFrame(() => from.focus());
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Escape' || e.nativeEvent.isComposing) return;
    e.stopPropagation();
    e.preventDefault();
    if (asking) keepEditing();
    else if (changed) {
      askedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setAsking(true);
    } else onDone();
  };
  return { asking, keepButton, keepEditing, onKeyDown };
}
