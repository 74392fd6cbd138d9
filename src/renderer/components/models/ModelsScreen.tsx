import { useEffect } from 'react';
import { X } from 'lucide-react';
import { useStore } from '../../store';
import { connectModelsStore, loadModelsScreen, useModelsStore } from '../../store/models-slice';
import { Modal } from '../frame/Modal';
import { LibrarySection } from '../library/LibrarySection';
import { AliasEditor } from './AliasEditor';
import { ModelList } from './ModelList';
import { PullBox } from './PullBox';
import { RunningModels } from './RunningModels';
import './models.css';

/**
 * The model manager as a native modal dialog (focus inside, Tab kept inside, Escape closes): the built-in
 * library, Ollama's models (pull, list, inspect, delete), running models, context windows and aliases.
 */
export function ModelsScreen({ onClose }: { onClose: () => void }) {
  const error = useModelsStore((s) => s.error);
  // Pulling and Ollama's model list are about Ollama: with the built-in engine active they would list its files.
  const builtinActive = useStore((s) => s.settings?.activeConnectionId === 'builtin');
  useEffect(() => {
    connectModelsStore();
    void loadModelsScreen();
  }, []);
  return (
    <Modal label="Models" testId="models-screen" className="mm-screen" onClose={onClose}>
      <div className="modal-head">
        <h2>Models</h2>
        {/* First in the dialog: keyboard users start here, and Escape (or this) leaves. */}
        <button type="button" className="icon-btn" data-testid="models-close" aria-label="Close Models" title="Close (Esc)" onClick={onClose} autoFocus>
          <X className="icon" aria-hidden />
        </button>
      </div>
      <div className="modal-body">
        {error && <p role="alert" className="mm-error" data-testid="models-screen-error">{error}</p>}
        <LibrarySection />
        {!builtinActive && <PullBox />}
        {!builtinActive && <ModelList />}
        <RunningModels />
        <AliasEditor />
      </div>
    </Modal>
  );
}
