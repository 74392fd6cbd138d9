import { useCallback, useEffect, useRef, type RefObject } from 'react';

/**
 * An in-place editor (a rename field, an edit box) that had the focus goes away when it closes, and the focus with
 * it, to <body>: the next Tab started over at the top of the page. Armed just before a close by the keyboard
 * (Enter, Escape, Cancel), the focus goes to `target` once `editing` is false; closed by the focus moving
 * elsewhere, it is left where the user put it.
 */
export function useFocusBack<T extends HTMLElement>(editing: boolean): { target: RefObject<T | null>; armFocusBack: () => void } {
  const target = useRef<T>(null);
  const armed = useRef(false);
  useEffect(() => {
    if (!editing && armed.current) target.current?.focus();
    armed.current = false;
  }, [editing]);
  const armFocusBack = useCallback(() => {
    armed.current = true;
  }, []);
  return { target, armFocusBack };
}
