import { useEffect, useRef } from 'react';
import { useStore } from '../../store';
import { connectModelsStore, loadModelsScreen, useModelsStore } from '../../store/models-slice';
import { LibrarySection } from '../library/LibrarySection';
import { AliasEditor } from './AliasEditor';
import { ModelList } from './ModelList';
import { PullBox } from './PullBox';
import { RunningModels } from './RunningModels';
import './models.css';

/** The model manager: the built-in library, Ollama's models (pull, list, inspect, delete), running models, context windows and aliases. */
export function ModelsScreen({ onClose }: { onClose: () => void }) {
  const error = useModelsStore((s) => s.error);
  // Pulling and Ollama's model list are about Ollama: with the built-in engine active they would list its files.
  const builtinActive = useStore((s) => s.settings?.activeConnectionId === 'builtin');
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    connectModelsStore();
    void loadModelsScreen();
    // Keyboard users start inside the dialog; Escape (below) leaves it.
    closeButton.current?.focus();
  }, []);
  return (
    <div
      className="mm-screen"
      role="dialog"
      aria-modal="true"
      aria-label="Models"
      data-testid="models-screen"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <div className="mm-row mm-header">
        <h2>Models</h2>
        <button type="button" ref={closeButton} data-testid="models-close" onClick={onClose}>Close</button>
      </div>
      {error && <p role="alert" className="mm-error" data-testid="models-screen-error">{error}</p>}
      <LibrarySection />
      {!builtinActive && <PullBox />}
      {!builtinActive && <ModelList />}
      <RunningModels />
      <AliasEditor />
    </div>
  );
}
