import { useEffect, useRef } from 'react';

const MARK = 'firebrandOverlay';
const ours = (state: unknown): boolean => typeof state === 'object' && state !== null && MARK in state;

/**
 * While `open`, the browser's back (Android's back button or gesture, a swipe from the screen's edge on an iPhone)
 * calls `close` instead of leaving Firebrand, as it closes an app's drawer: an entry goes on the history when it
 * opens, and comes off again when it is closed another way. Safe under StrictMode's doubled effects.
 */
export function useBackCloses(open: boolean, close: () => void): void {
  const closeRef = useRef(close);
  closeRef.current = close;
  const openRef = useRef(open);
  openRef.current = open;
  // Set while the history.back() that takes our entry off is on its way.
  const leaving = useRef(false);
  useEffect(() => {
    if (open) {
      if (!ours(history.state) && !leaving.current) history.pushState({ [MARK]: true }, '');
    } else if (ours(history.state) && !leaving.current) {
      leaving.current = true;
      history.back();
    }
  }, [open]);
  useEffect(() => {
    const onPop = () => {
      if (leaving.current) {
        // Our own back arrived; opened again meanwhile, it needs its entry again.
        leaving.current = false;
        if (openRef.current) history.pushState({ [MARK]: true }, '');
        return;
      }
      // Forward onto our entry again: nothing to open.
      if (ours(history.state)) return;
      if (openRef.current) closeRef.current();
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
}
