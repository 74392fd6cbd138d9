import { useEffect, useState } from 'react';
import { Square } from 'lucide-react';
import { useFocusToComposerWhenGone } from './use-focus-to-composer';

/** How long Stop takes no pointer after it takes Send's place: about a double-click's second press. */
export const STOP_ARMING_MS = 500;

/**
 * Stop, in Send's place while an answer runs. A double-click on Send stopped the answer it had just started: its
 * second press landed on Stop, drawn where Send was; and a Send clicked in one tab as another tab's answer began
 * stopped that answer instead (conversations audit D1). So for its first half second Stop lets the pointer through to
 * what is under it (nothing: the composer's row), and it never takes the second click of a double-click. Keyboard
 * users (Enter on it, Escape anywhere) stop at once; gone, it hands the focus it had to the message box.
 */
export function StopButton({ onStop }: { onStop: () => void }) {
  const [armed, setArmed] = useState(false);
  const button = useFocusToComposerWhenGone<HTMLButtonElement>();
  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), STOP_ARMING_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <button
      ref={button}
      type="button"
      className={armed ? 'danger stop' : 'danger stop arming'}
      data-testid="composer-stop"
      onClick={(e) => {
        if (e.detail > 1) return;
        onStop();
      }}
    >
      <Square className="icon" aria-hidden />
      <span className="button-label">Stop</span>
    </button>
  );
}
