import { loadLibrary, unloadBuiltin, useLibraryStore } from '../../store/library-slice';
import { loadRunning, unloadModel, useModelsStore } from '../../store/models-slice';
import type { LoadedModel } from '../../../shared/library';
import type { RunningModel } from '../../../shared/models';
import { formatBytes, formatTokens } from './format';
import { unloadWhen } from './unload-time';

const NONE: RunningModel[] = [];

/**
 * An Ollama model's memory, context and unload time, as /api/ps says them; the context in tokens, beside the GiB on
 * the same line ("context 8,192" left the user to guess; models eyes pass).
 */
export function ollamaFacts(m: RunningModel, now?: Date, locale?: string): string {
  const context = m.contextLength !== null ? ` · context ${formatTokens(m.contextLength)} tokens` : '';
  // Its day too where it is not today, and "kept loaded" for keep_alive -1 (it said "unloads 12:00:00 AM").
  const when = m.expiresAt ? unloadWhen(m.expiresAt, now, locale) : null;
  const unloads = when !== null ? ` · ${when}` : '';
  return `${formatBytes(m.sizeVramBytes)} of ${formatBytes(m.sizeBytes)} on the GPU${context}${unloads}`;
}

/** The built-in engine's loaded model: its memory and its context, in tokens too. */
export function builtinFacts(m: LoadedModel): string {
  return `built-in · ${formatBytes(m.memoryBytes)} held · context ${formatTokens(m.contextSize)} tokens`;
}

/**
 * What is loaded: Ollama's models (`/api/ps`: memory on the GPU, context, expiry, a CPU spill warning) and the built-in
 * engine's (memory held, context, idle unload). `ollama`: the name of the Ollama connection in use (shared
 * connectionName), null where the one in use is not an Ollama.
 */
export function RunningModels({ ollama }: { ollama: string | null }) {
  // Ollama's /api/ps says nothing about another server: asked only where Ollama is the active connection.
  const running = useModelsStore((s) => (ollama !== null ? s.running : NONE));
  const status = useLibraryStore((s) => s.status);
  const builtin = status?.loaded ?? [];
  const runningRead = useModelsStore((s) => s.runningRead);
  return (
    <section className="mm-section" aria-label="Running models" data-testid="running-models">
      <div className="mm-row">
        <h3>Running</h3>
        <button type="button" data-testid="running-refresh" onClick={() => { if (ollama !== null) void loadRunning(); void loadLibrary(); }}>Refresh</button>
      </div>
      {/* Named as the user named it: "What Ollama has loaded" was said of a second Ollama called "Desk GPU". */}
      {ollama !== null && !runningRead && builtin.length === 0 && (
        <p className="mm-muted" data-testid="running-unknown">
          What {ollama} has loaded is not known: it could not be asked. Refresh asks again.
        </p>
      )}
      {running.length === 0 && builtin.length === 0 && (ollama === null || runningRead) && <p className="mm-muted" data-testid="running-none">{ollama !== null ? 'No model is loaded.' : 'The built-in engine has no model loaded. A server such as llama-server keeps its own model loaded while it runs.'}</p>}
      {builtin.length > 0 && (
        <ul className="mm-list">
          {builtin.map((m) => (
            <li key={m.file} data-testid="running-builtin" data-file={m.file} data-answering={m.answering}>
              <strong>{m.file}</strong>{' '}
              <span className="mm-muted">
                {builtinFacts(m)}
                {m.answering ? ' · answering now: stop the answer to unload it' : m.unloadsAt ? ` · ${unloadWhen(m.unloadsAt) ?? ''} if unused` : ''}
              </span>{' '}
              {/* Main refuses to unload a model mid-answer: the button is not offered to be refused. */}
              <button type="button" disabled={m.answering} aria-label={`Unload ${m.file}`} onClick={() => void unloadBuiltin(m.file)}>Unload</button>
            </li>
          ))}
        </ul>
      )}
      <ul className="mm-list">
        {running.map((m) => (
          <li key={m.name} data-testid="running-model">
            <strong>{m.name}</strong>{' '}
            <span className="mm-muted">
              {ollamaFacts(m)}
            </span>
            {m.spilledToCpu && <span className="mm-error" data-testid="running-spilled"> Spilled to the CPU: it did not fit on the GPU and runs slower.</span>}{' '}
            <button type="button" data-testid="running-unload" onClick={() => void unloadModel(m.name)}>Unload</button>
          </li>
        ))}
      </ul>
    </section>
  );
}
