import { useId, useRef, useState } from 'react';
import type { ModelSummary } from '../../../shared/ipc';
import type { ModelArchitecture } from '../../../shared/models';
import { deleteModel, hideDetails, loadModelsScreen, showDetails, useModelsStore, type ModelsState } from '../../store/models-slice';
import { ContextPanel } from './ContextPanel';
import { formatBytes, formatTokens } from './format';
import { ModelWindow } from './ModelWindow';
import { useFocusAfterRemoval } from '../../hooks/use-focus-after-removal';

/**
 * The active server's models with size, family, parameters and quantization, and the window each one's next
 * message carries; details and delete (confirmed) are Ollama's and shown for Ollama only (models audit #3).
 */
/** Size, family, parameters, quantization: those the server said, "" where it said none (never a lone "—"). */
export function facts(m: ModelSummary): string {
  return [m.sizeBytes === null ? null : formatBytes(m.sizeBytes), m.family, m.parameterSize, m.quantization].filter(Boolean).join(' · ');
}

/**
 * A model's architecture in Details, each number with its unit: "trained context 40,960" and "sliding window 1024"
 * left the user to guess tokens or bytes (models eyes pass).
 */
export function architectureLine(a: ModelArchitecture): string {
  const trained = a.contextLength === null ? 'not said' : `${formatTokens(a.contextLength)} tokens`;
  const sliding = a.slidingWindow === null ? '' : `, sliding window ${formatTokens(a.slidingWindow)} tokens`;
  return `${a.arch}: ${a.blockCount} layers, trained context ${trained}${sliding}`;
}

/**
 * What the list says where the server has no models: an Ollama with nothing pulled showed the "Models" heading over
 * nothing, where the banner's "Open Models" had sent the user (first-run hunt). Null while the list is read or where
 * it could not be (the screen's error says why), and where there are models.
 */
export function noModelsNote(s: Pick<ModelsState, 'models' | 'modelsRead' | 'error'>, ollama: boolean): string | null {
  if (s.models.length > 0 || !s.modelsRead || s.error !== null) return null;
  return ollama
    ? 'This Ollama has no models yet. Pull one above by its name in the Ollama library (ollama.com/library), such as llama3.2:1b (1.3 GB); it is then in the composer’s model list.'
    : 'This server lists no models. Start it with a model, or check its address in Settings → Connections.';
}

/**
 * `name`: the connection's (shared connectionName). The section is headed "Ollama’s models": a bare "Models" right
 * under the dialog's title "Models" read twice at 390 px.
 */
export function ModelList({ connectionId, ollama, name }: { connectionId: string; ollama: boolean; name: string }) {
  const models = useModelsStore((s) => s.models);
  const listError = useModelsStore((s) => s.listError);
  const none = useModelsStore((s) => noModelsNote(s, ollama));
  const details = useModelsStore((s) => s.details);
  const ids = useId();
  const [confirming, setConfirming] = useState<string | null>(null);
  // The question takes the place of Delete…: the focus goes to Keep (the safe answer), and back to Delete… on Keep.
  const [kept, setKept] = useState<string | null>(null);
  const keep = (name: string) => {
    setConfirming(null);
    setKept(name);
  };
  // Deleted, the row goes with the focus on its Delete: it moves to the model that takes its place (else the one
  // before), else to the Pull box; it fell to <body>. Refused, it stays on the row's Delete….
  const section = useRef<HTMLElement>(null);
  const row = (name: string) => section.current?.querySelector<HTMLElement>(`[data-testid="model-row"][data-model="${CSS.escape(name)}"]`);
  const removal = useFocusAfterRemoval(
    models.map((m) => m.name),
    (name) => row(name)?.querySelector<HTMLElement>('button'),
    () => section.current?.closest('dialog')?.querySelector<HTMLElement>('[data-testid="pull-input"]'),
  );
  const remove = async (name: string) => {
    setConfirming(null);
    removal.arm(name);
    if (await deleteModel(name)) return;
    removal.disarm();
    row(name)?.querySelector<HTMLElement>('[data-testid="model-delete"]')?.focus();
  };
  return (
    <section className="mm-section" aria-label="Models" ref={section}>
      <h3 data-testid="models-list-title">{name}’s models</h3>
      {/* Said where the list would be: at the top of the dialog it was out of view at 390 px (models eyes pass). */}
      {listError !== null && (
        <div className="mm-row" data-testid="models-list-failed">
          <p role="alert" className="mm-error" data-testid="models-list-error">{listError}</p>
          <button type="button" data-testid="models-list-retry" onClick={() => void loadModelsScreen()}>Try again</button>
        </div>
      )}
      {/* First-run hunt: an Ollama with nothing pulled showed this heading over nothing, and the banner's "Open Models" led here. */}
      {none !== null && <p className="mm-muted" data-testid="models-none">{none}</p>}
      <ul className="mm-list">
        {models.map((m, i) => (
          <li key={m.name} data-testid="model-row" data-model={m.name}>
            <div className="mm-row">
              <strong>{m.name}</strong>
              {facts(m) !== '' && <span className="mm-muted" data-testid="model-facts">{facts(m)}</span>}
              <ModelWindow model={m.name} connectionId={connectionId} />
              {ollama && (
                // A toggle: clicked again, the Details fold (they stayed open).
                <button
                  type="button"
                  data-testid="model-details"
                  aria-label={`Details of ${m.name}`}
                  aria-expanded={details?.name === m.name}
                  aria-controls={details?.name === m.name ? `${ids}-details-${i}` : undefined}
                  onClick={() => (details?.name === m.name ? hideDetails() : void showDetails(m.name))}
                >
                  Details
                </button>
              )}
              {!ollama ? null : confirming === m.name ? (
                <>
                  <span>Delete {m.name} from the server?</span>
                  <button type="button" data-testid="model-delete-confirm" aria-label={`Delete ${m.name}`} onClick={() => void remove(m.name)}>Delete</button>
                  <button type="button" autoFocus aria-label={`Keep ${m.name}`} onClick={() => keep(m.name)}>Keep</button>
                </>
              ) : (
                <button type="button" data-testid="model-delete" aria-label={`Delete ${m.name}…`} autoFocus={kept === m.name} onClick={() => setConfirming(m.name)}>Delete…</button>
              )}
            </div>
            {ollama && details?.name === m.name && (
              <div className="mm-details" data-testid="model-details-view" id={`${ids}-details-${i}`}>
                <p>Can: {details.capabilities.join(', ') || 'not said'}</p>
                {details.architecture && (
                  <p className="mm-muted">
                    {architectureLine(details.architecture)}
                  </p>
                )}
                {details.system && <details><summary>System prompt</summary><pre>{details.system}</pre></details>}
                <details><summary>Parameters</summary><pre>{JSON.stringify(details.parameters, null, 2)}</pre></details>
                <details><summary>Template</summary><pre>{details.template}</pre></details>
                {details.license && <details><summary>License</summary><pre>{details.license}</pre></details>}
                <ContextPanel model={m.name} />
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
