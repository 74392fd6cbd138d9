import { useEffect } from 'react';
import { X } from 'lucide-react';
import { connectionName } from '../../../shared/connections';
import { useStore } from '../../store';
import { connectModelsStore, loadModelsScreen, useModelsStore } from '../../store/models-slice';
import { loadConnectionsOnce, useConnectionsStore } from '../../store/connections-slice';
import { Modal } from '../frame/Modal';
import { LibrarySection } from '../library/LibrarySection';
import { AliasEditor } from './AliasEditor';
import { GpuMemoryLine } from './GpuMemoryLine';
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
  const listError = useModelsStore((s) => s.listError);
  // Pulling, details, delete and the running list are Ollama's: shown only where Ollama is the active connection
  // (with llama-server active they went to Ollama's address; models audit #3). The built-in engine lists its
  // files in its own section.
  const activeId = useStore((s) => s.settings?.activeConnectionId ?? 'ollama');
  const kind = useConnectionsStore((s) => s.connections.find((c) => c.id === activeId)?.kind) ?? (activeId === 'ollama' ? 'ollama' : activeId === 'builtin' ? 'builtin' : undefined);
  // Another connection made active, or the active one's address changed (here or in another tab): its lists.
  const address = useConnectionsStore((s) => s.connections.find((c) => c.id === activeId)?.baseUrl);
  const ollama = kind === 'ollama';
  // What the screen calls the active server: its name, as the banner and the composer call it (the default's is "Ollama").
  const serverName = useConnectionsStore((s) => {
    const active = s.connections.find((c) => c.id === activeId);
    return active ? connectionName(active) : 'Ollama';
  });
  const listed = kind !== 'builtin' && kind !== undefined;
  useEffect(() => loadConnectionsOnce(), []);
  useEffect(() => {
    connectModelsStore();
    void loadModelsScreen(ollama);
  }, [ollama, activeId, address]);
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
        {/* A list that could not be read is said in its own section; with no such section shown, here. */}
        {!listed && listError && <p role="alert" className="mm-error" data-testid="models-screen-error">{listError}</p>}
        <LibrarySection />
        {ollama && <PullBox name={serverName} />}
        {/* Said once for every model's window (their rows and Details point here), above them. */}
        {listed && <GpuMemoryLine />}
        {listed && <ModelList connectionId={activeId} ollama={ollama} name={serverName} />}
        <RunningModels ollama={ollama ? serverName : null} />
        <AliasEditor serverName={serverName} />
      </div>
    </Modal>
  );
}
