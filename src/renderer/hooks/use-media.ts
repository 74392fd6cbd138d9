import { useEffect, useState } from 'react';

/** Whether a media query matches now, following its changes (the window resized, the OS theme switched). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const update = () => setMatches(media.matches);
    update();
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, [query]);
  return matches;
}

/** A phone's width: the composer's controls and the words under it are laid out for it (styles/composer.css's number). */
export const PHONE = '(max-width: 480px)';

/** Below this width the sidebar is a drawer over the chat (styles/layout.css uses the same number). */
export const NARROW = '(max-width: 860px)';

/**
 * A touch screen is the main input (a phone, a tablet): no hover, a finger. Its on-screen keyboard has no Shift+Enter,
 * so there the return key adds a line and Send sends.
 */
export const TOUCH = '(hover: none) and (pointer: coarse)';
