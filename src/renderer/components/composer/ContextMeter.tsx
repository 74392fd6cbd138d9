import type { ContextWindowSource } from '../../../shared/models';

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
  /** How main counted the conversation (the draft is always estimated): the server, the model's tokenizer, or not. */
  counted?: 'server' | 'tokenizer' | 'estimate' | null;
}

/** Estimate against window, as a bar; the numbers and the window's source ride in data attributes for tests and
 * in the title for users. */
export function ContextMeter({ estimate, window, source, reason, ratio = 1, counted: by = null }: Props) {
  const fmt = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
  const counted =
    by === 'server'
      ? "the conversation counted by the server, the draft estimated"
      : by === 'tokenizer'
        ? "the conversation counted with the model's tokenizer, the draft estimated"
        : ratio === 1
          ? 'estimated from characters'
          : `estimated from characters, scaled ×${ratio.toFixed(1)} by the server's counts`;
  if (window === null) {
    return (
      <div className="context-meter pending" data-testid="context-meter" data-estimate={estimate} data-window="" data-source="pending" title="Reading the model's context window…" role="meter" aria-label="Context used">
        <div className="meter-bar" />
        <span className="meter-text">{fmt(estimate)} / …</span>
        <span className="meter-source" data-testid="context-source">
          reading the window…
        </span>
      </div>
    );
  }
  const ratioUsed = window > 0 ? estimate / window : 1;
  const level = ratioUsed > 1 ? 'over' : ratioUsed > 0.8 ? 'high' : 'ok';
  return (
    <div
      className={`context-meter ${level}`}
      data-testid="context-meter"
      data-estimate={estimate}
      data-window={window}
      data-source={source}
      data-estimate-ratio={ratio}
      data-counted={by ?? 'renderer'}
      title={`About ${estimate} of ${window} tokens of the model's context window (${SOURCE[source]})${reason ? `: ${reason}` : ''}. The estimate is ${counted}.`}
      role="meter"
      aria-label="Context used"
      aria-valuemin={0}
      aria-valuemax={window}
      aria-valuenow={Math.min(estimate, window)}
    >
      <div className="meter-bar">
        <div className="meter-fill" style={{ width: `${Math.min(100, ratioUsed * 100)}%` }} />
      </div>
      <span className="meter-text">
        {ratio === 1 ? '' : '≈'}
        {fmt(estimate)} / {fmt(window)}
      </span>
      <span className="meter-source" data-testid="context-source">
        {SOURCE[source]}
      </span>
    </div>
  );
}
