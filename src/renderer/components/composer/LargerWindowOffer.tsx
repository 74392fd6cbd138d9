import { useStore } from '../../store';
import { setContextWindow } from '../../store/models-slice';
import { formatTokens } from '../../format';

import { ANSWER_ROOM } from './PageRange';

/**
 * When the message does not fit, a larger window where the model allows it (its trained context), kept for the
 * model as the Models screen would keep it. Only where Firebrand chooses the window (Ollama): an alias or
 * llama-server's launch flag decides it otherwise, and the offer says so.
 */
export function LargerWindowOffer({ model, need }: { model: string | null; need: number }) {
  const choice = useStore((s) => s.contextChoice);
  const summary = useStore((s) => s.models.find((m) => m.name === model));
  if (!choice) return null;
  if (choice.source === 'server') {
    return <span className="window-offer">llama-server’s window is fixed at launch: restart it with a larger <code>-c</code>.</span>;
  }
  if (choice.source === 'alias' || model === null) return <span className="window-offer">The alias sets this window; change it in Models.</span>;
  if (!['fallback', 'recommended', 'user'].includes(choice.source)) return null;
  const trained = summary?.contextLength;
  const offer = Math.ceil((need + ANSWER_ROOM) / 1024) * 1024;
  // Where the server does not say how long a context the model was trained for, no window is offered blind.
  if (trained === undefined) return null;
  if (offer > trained) return <span className="window-offer">{model} takes at most {formatTokens(trained)} tokens: choose fewer pages.</span>;
  // A recommended window is the largest that fits the GPU: a larger one runs partly on the CPU.
  const slower = choice.source === 'recommended';
  return (
    <button
      type="button"
      className="window-offer"
      data-testid="context-larger"
      title={slower ? 'More than fits your GPU’s memory: the model will run partly on the CPU, slower.' : `Kept for ${model}; Ollama reloads the model with it.`}
      onClick={() => void setContextWindow(model, offer, 'user')}
    >
      Use a {formatTokens(offer)}-token window{slower ? ' (slower: beyond your GPU)' : ''}
    </button>
  );
}
