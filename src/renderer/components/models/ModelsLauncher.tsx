import { useState } from 'react';
import './models.css';
import { ModelsScreen } from './ModelsScreen';

/** The one entry point App.tsx renders: a "Models" button that opens the model manager as a panel. */
export function ModelsLauncher() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="mm-launch" data-testid="models-open" onClick={() => setOpen(true)}>
        Models
      </button>
      {open && <ModelsScreen onClose={() => setOpen(false)} />}
    </>
  );
}
