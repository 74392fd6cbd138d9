import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Boxes } from 'lucide-react';

// The model manager loads when first opened (with its styles): the start pays only for the chat (bench/start).
const ModelsScreen = lazy(() => import('./ModelsScreen').then((m) => ({ default: m.ModelsScreen })));

/**
 * The sidebar's "Models" button (beside Settings, in the tab order) that opens the model manager; closing it
 * gives the focus back to the button, so a keyboard user lands where they left.
 */
export function ModelsLauncher() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // Once the dialog is gone (while it is open the rest of the page is inert and cannot take the focus).
  useEffect(() => {
    if (!open && wasOpen.current) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  const close = () => setOpen(false);
  return (
    <>
      <button type="button" ref={button} className="mm-launch" data-testid="models-open" aria-haspopup="dialog" title="Models (Ctrl+Shift+M)" onClick={() => setOpen(true)}>
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
