import { useCallback, useEffect, useRef } from 'react';

/**
 * A row deleted from a list goes, and the focus in it (on its Delete), falls to <body>: the next Tab starts over at
 * the top of the dialog. Armed with the row's key just before its delete, once `keys` no longer holds it the focus
 * goes to the row that took its place, else to the one before it (`focusable(key)` finds what to focus in a row),
 * else to `fallback()`. Disarmed where the delete was refused (the row stays, and so may the focus).
 */
export function useFocusAfterRemoval(
  keys: readonly string[],
  focusable: (key: string) => HTMLElement | null | undefined,
  fallback: () => HTMLElement | null | undefined,
): { arm: (key: string) => void; disarm: () => void } {
  // Checked after every render (a list a few rows long): the render that drops the row is the one to act on.
  const pending = useRef<{ gone: string; to: string | null } | null>(null);
  const current = useRef(keys);
  current.current = keys;
  useEffect(() => {
    const p = pending.current;
    if (!p || keys.includes(p.gone)) return;
    pending.current = null;
    ((p.to === null ? null : focusable(p.to)) ?? fallback())?.focus();
  });
  const arm = useCallback((key: string) => {
    const list = current.current;
    const at = list.indexOf(key);
    pending.current = { gone: key, to: list[at + 1] ?? list[at - 1] ?? null };
  }, []);
  const disarm = useCallback(() => {
    pending.current = null;
  }, []);
  return { arm, disarm };
}
