import { useLayoutEffect, useRef } from 'react';
import { TOUCH } from '../../hooks/use-media';
import { focusComposer } from './focus-composer';

/**
 * A ref for a button that goes away as it acts or as the answer moves on (Send, which Stop replaces; Stop, which Send
 * replaces when the answer ends): if it has the focus when it goes, the message box takes it. Without this the
 * focus fell to the page's body, and a keyboard user's next Tab started again from the top of the page.
 */
export function useFocusToComposerWhenGone<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  // A layout effect's cleanup runs while the button is still in the document, so it can still be seen to have the
  // focus (once removed, the focus is already on the body).
  useLayoutEffect(() => {
    const button = ref.current;
    return () => {
      // Not on a touch screen: the on-screen keyboard would come up over the answer.
      if (button !== null && document.activeElement === button && !window.matchMedia(TOUCH).matches) focusComposer();
    };
  }, []);
  return ref;
}
