import { useCallback, useEffect, useRef } from 'react';

/**
 * A control replaced by one in a row that comes with a later render (a pull started or started again, a file
 * renamed: the row has a new key) takes the focus with it to <body>. `focusWhenShown(find)` focuses what `find`
 * returns as soon as it is there: at once where the row is already shown, else after the render that shows it.
 * Checked after every render of the component that holds the list; a newer call replaces an older one.
 */
export function useFocusWhenShown(): (find: () => HTMLElement | null | undefined) => void {
  const pending = useRef<(() => HTMLElement | null | undefined) | null>(null);
  useEffect(() => {
    const el = pending.current?.();
    if (!el) return;
    pending.current = null;
    el.focus();
  });
  return useCallback((find) => {
    const el = find();
    if (el) {
      pending.current = null;
      el.focus();
    } else {
      pending.current = find;
    }
  }, []);
}
