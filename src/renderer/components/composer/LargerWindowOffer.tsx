import type { LargerWindow } from '../../../shared/context-ipc';
import { formatTokens } from '../../format';

const gib = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GiB`;
const ENGINE = { ollama: 'Ollama', builtin: 'The built-in engine' } as const;

/**
 * A larger window where Firebrand chooses it (Ollama's num_ctx kept per model, the built-in engine's kept window),
 * as main worked it out: the new window, the memory it needs and that the model reloads. Where no larger window
 * can be had (llama-server's -c, an alias, the trained context, the memory), the reason instead. Used by the
 * composer when a draft does not fit and by the refusal card's choices (issue 21).
 */
export function LargerWindowOffer({ offer, onUse, busy = false }: { offer: LargerWindow | null; onUse: (window: number) => void; busy?: boolean }) {
  if (!offer) return null;
  if (offer.kind === 'none') {
    return (
      <span className="window-offer" data-testid="context-larger-none">
        {offer.reason}
      </span>
    );
  }
  const memory = offer.memoryBytes !== null ? `needs ${gib(offer.memoryBytes)}` : 'memory it needs unknown';
  const fits =
    offer.fits === 'yes'
      ? `fits${offer.usableBytes !== null ? ` the ${gib(offer.usableBytes)} free` : ''}`
      : offer.fits === 'slower'
        ? 'more than fits the GPU: part runs on the CPU, slower'
        : 'free memory unknown';
  return (
    <span className="window-offer-row">
      <button
        type="button"
        className="window-offer"
        data-testid="context-larger"
        data-window={offer.window}
        disabled={busy}
        title={`Kept for this model; ${ENGINE[offer.engine]} reloads it with the new window.`}
        onClick={() => onUse(offer.window)}
      >
        Use a {formatTokens(offer.window)}-token window
      </button>{' '}
      <span className="window-offer" data-testid="context-larger-cost">
        ({memory}, {fits}; the model reloads)
      </span>
      {/* A phone's line under the message box has room for the button and a few words (composer.css): the memory and
          whether it fits; that the model reloads is in the button's title. */}
      <span className="window-offer phone-cost" data-testid="context-larger-cost-short">
        {shortCost(offer)}
      </span>
    </span>
  );
}

/** The cost in a few words, for a phone: "(needs 3.7 GiB)", "(3.7 GiB, fits)", "(3.7 GiB, part on the CPU)". */
function shortCost(offer: Extract<LargerWindow, { kind: 'offer' }>): string {
  if (offer.memoryBytes === null) return '(memory unknown)';
  const size = gib(offer.memoryBytes);
  return offer.fits === 'yes' ? `(${size}, fits)` : offer.fits === 'slower' ? `(${size}, part on the CPU)` : `(needs ${size})`;
}
