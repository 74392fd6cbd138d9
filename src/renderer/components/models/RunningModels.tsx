import { loadRunning, unloadModel, useModelsStore } from '../../store/models-slice';
import { formatBytes } from './format';

/** What the server has loaded (`/api/ps`): memory on the GPU, context, expiry, and a CPU spill warning. */
export function RunningModels() {
  const running = useModelsStore((s) => s.running);
  return (
    <section className="mm-section" aria-label="Running models" data-testid="running-models">
      <div className="mm-row">
        <h3>Running</h3>
        <button type="button" onClick={() => void loadRunning()}>Refresh</button>
      </div>
      {running.length === 0 && <p className="mm-muted">No model is loaded.</p>}
      <ul className="mm-list">
        {running.map((m) => (
          <li key={m.name} data-testid="running-model">
            <strong>{m.name}</strong>{' '}
            <span className="mm-muted">
              {formatBytes(m.sizeVramBytes)} of {formatBytes(m.sizeBytes)} on the GPU
              {m.contextLength !== null ? ` · context ${m.contextLength.toLocaleString('en-US')}` : ''}
              {m.expiresAt ? ` · unloads ${new Date(m.expiresAt).toLocaleTimeString()}` : ''}
            </span>
            {m.spilledToCpu && <span className="mm-error" data-testid="running-spilled"> Spilled to the CPU: it did not fit on the GPU and runs slower.</span>}{' '}
            <button type="button" data-testid="running-unload" onClick={() => void unloadModel(m.name)}>Unload</button>
          </li>
        ))}
      </ul>
    </section>
  );
}
