import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Boxes } from 'lucide-react';

// The model manager loads when first opened (with its styles): the start pays only for the chat (bench/start).
const ModelsScreen = lazy(() => import('./ModelsScreen').then((m) => ({ default: m.ModelsScreen })));

interface Props {
  /** The dialog opens (a phone's drawer closes behind it, as for Settings). */
  onOpen?: () => void;
  /** Gives the focus somewhere else when the dialog has closed, where the button is hidden (in a closed drawer): true when it did. */
  focusInstead?: () => boolean;
}

/**
 * The sidebar's "Models" button (beside Settings, in the tab order) that opens the model manager; closing it
 * gives the focus back to the button, so a keyboard user lands where they left.
 */
export function ModelsLauncher({ onOpen, focusInstead }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const instead = useRef(focusInstead);
  instead.current = focusInstead;
  // Once the dialog is gone (while it is open the rest of the page is inert and cannot take the focus).
  useEffect(() => {
    if (!open && wasOpen.current && instead.current?.() !== true) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  const close = () => setOpen(false);
  return (
    <>
      <button type="button" ref={button} className="mm-launch" data-testid="models-open" aria-haspopup="dialog" title="Models (Ctrl+Shift+M)" onClick={() => {
          setOpen(true);
          onOpen?.();
        }}
      >
        <Boxes className="icon" aria-hidden />
        Models
      </button>
      {open && (
        <Suspense fallback={null}>
          <ModelsScreen onClose={close} />
        </Suspense>
      )}
    </>
  );
}
