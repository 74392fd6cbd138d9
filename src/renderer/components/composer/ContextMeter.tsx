import { GPU_UNKNOWN_REASON, type ContextWindowSource } from '../../../shared/models';
import { fitsWindow } from '../../../shared/context-estimate';
import type { RefusalParts } from '../../../shared/system-turns';
import { formatExactTokens, formatTokenPair, formatTokens } from '../../format';
import { partRows } from '../context/part-words';
import { openSettings } from '../../store/settings-open';

/**
 * Main's reason for the default window where the GPU memory is unknown, as the line under the box says it. It said
 * main's whole sentence ("GPU memory is unknown: set it in Settings → GPU memory to get a recommendation."), cut on a
 * wide window and three lines on a phone; the Models screen says it once on its own GPU line. "Set it" beside it
 * opens Settings at GPU memory. One short sentence, as the other notes under the box are: "GPU memory unknown" read
 * as a label run on from the meter's "default" ("default GPU memory unknown Set it").
 */
export const GPU_UNKNOWN_SHORT = 'The GPU memory is unknown.';

/**
 * A recommended window's reason opens with what the numbers and the label beside it say already ("32,768 tokens fit
 * in system memory." beside "32K tokens  recommended for your system memory"): at 390 px it took a line of its own
 * to say it again. Only what follows it (a note) is shown; the whole stays in the title and the spoken value.
 */
const FITS_ALREADY_SAID = /^[\d,]+ tokens fit (?:in [^.]+|on the GPU)\.\s*/;

const SOURCE: Record<ContextWindowSource, string> = {
  alias: 'set by the alias',
  user: 'your choice for this model',
  recommended: 'recommended for your GPU',
  server: "the server's fixed window",
  fallback: 'default',
  unknown: 'the server decides',
};

interface Props {
  estimate: number;
  /** null until main has said which window the next message carries. */
  window: number | null;
  source: ContextWindowSource;
  reason: string | null;
  /** The estimate's correction learned from the server's counts for this model (1: characters / 4 only). */
  ratio?: number;
  /** How main counted the conversation: the server, the model's tokenizer, or not. */
  counted?: 'server' | 'tokenizer' | 'estimate' | null;
  /** Main counted the draft's text too, the same way (else the draft is estimated). */
  draftCounted?: boolean;
  /** A recommended window worked out from system memory (the built-in engine on the CPU), not a GPU's. */
  memory?: 'system' | undefined;
  /** What makes up the estimate, as a refusal card lists it; absent until main has measured the conversation. */
  parts?: RefusalParts | undefined;
}

/**
 * Estimate against window, as a bar and words: the window the next message carries is always on screen with
 * where it came from; the reason is one hover or focus away (and read by screen readers). The exact numbers ride
 * in data attributes for tests.
 */
export function ContextMeter({ estimate, window, source, reason, ratio = 1, counted: by = null, draftCounted = false, memory, parts }: Props) {
  const sourceLabel = source === 'recommended' && memory === 'system' ? 'recommended for your system memory' : SOURCE[source];
  const what = draftCounted ? 'the conversation and the draft' : 'the conversation';
  const draftHow = draftCounted ? '' : ', the draft estimated';
  const counted =
    by === 'server'
      ? `${what} counted by the server${draftHow}`
      : by === 'tokenizer'
        ? `${what} counted with the model's tokenizer${draftHow}`
        : ratio === 1
          ? 'estimated from characters'
          : `estimated from characters, scaled ×${ratio.toFixed(1)} by the server's counts`;
  if (window === null) {
    return (
      <div className="context-meter pending" data-testid="context-meter" data-estimate={estimate} data-window="" data-source="pending" title="Reading the model's context window…" role="meter" aria-label="Context used" aria-valuemin={0} aria-valuemax={1} aria-valuenow={0}>
        <div className="meter-bar" />
        <span className="meter-text">{formatTokens(estimate)} / …</span>
        <span className="meter-source" data-testid="context-source">
          reading the window…
        </span>
      </div>
    );
  }
  const ratioUsed = window > 0 ? estimate / window : 1;
  // Over where Send and main's preflight say it does not fit: at the window itself, no token is left for the answer.
  const level = !fitsWindow(estimate, window) ? 'over' : ratioUsed > 0.8 ? 'high' : 'ok';
  // A reason is a sentence of its own ("…started with n_ctx 8192."): its period is the one this sentence ends with.
  const why = reason?.replace(/\.+\s*$/, '');
  // The same parts a refusal card lists: the total alone said nothing of what to cut before sending.
  const rows = parts ? partRows(parts) : [];
  const breakdown = rows.length > 0 ? ` ${rows.map((r) => r.text).join('; ')}.` : '';
  const reasonShown = source === 'recommended' && reason !== null ? reason.replace(FITS_ALREADY_SAID, '') : reason;
  const shownReason = reasonShown !== null && reasonShown !== '' && (source === 'fallback' || source === 'recommended' || source === 'user');
  const gpuUnknown = shownReason && reason === GPU_UNKNOWN_REASON;
  const explanation = `About ${formatExactTokens(estimate)} of ${formatExactTokens(window)} tokens of the context window (${sourceLabel})${why ? `: ${why}` : ''}.${breakdown} The estimate is ${counted}.`;
  return (
    <>
      <div
        className={`context-meter ${level}${gpuUnknown ? ' short-reason' : ''}`}
        data-testid="context-meter"
        data-estimate={estimate}
        data-window={window}
        data-source={source}
        data-estimate-ratio={ratio}
        data-counted={by ?? 'renderer'}
        data-draft-counted={draftCounted}
        title={explanation}
        // A reason on one line is cut on a wide window and whole only in the title, which no key shows: a Tab stop
        // where there is one, and focused it wraps (composer.css).
        tabIndex={shownReason && !gpuUnknown ? 0 : undefined}
        role="meter"
        aria-label="Context used"
        aria-valuemin={0}
        aria-valuemax={window}
        aria-valuenow={Math.min(estimate, window)}
        aria-valuetext={explanation}
      >
        <div className="meter-bar">
          <div className="meter-fill" style={{ width: `${Math.min(100, ratioUsed * 100)}%` }} />
        </div>
        <span className="meter-text">
          {ratio === 1 ? '' : '≈'}
          {formatTokenPair(estimate, window)} tokens
        </span>
        <span className="meter-source" data-testid="context-source">
          {sourceLabel}
        </span>
        {/* Why this window, in words, where it is not obvious (a default, what fits the GPU, a kept one past it). */}
        {shownReason && !gpuUnknown && (
          <span className="meter-reason" data-testid="context-reason">
            {reasonShown}
          </span>
        )}
      </div>
      {/* Outside the meter, whose content is not read as controls; the words and the link wrap together on a phone. */}
      {gpuUnknown && (
        <span className="meter-gpu-note">
          <span data-testid="context-reason">{GPU_UNKNOWN_SHORT}</span>
          <button type="button" className="link-button" data-testid="context-set-gpu" aria-label="Set the GPU memory in Settings" onClick={() => openSettings('gpu')}>
            Set it
          </button>
        </span>
      )}
    </>
  );
}
