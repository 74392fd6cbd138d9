import type { ContextWindowSource } from '../../../shared/models';

const SOURCE: Record<ContextWindowSource, string> = {
  alias: 'set by the alias',
  user: 'your choice for this model',
  recommended: 'recommended for your GPU',
  server: "the server's fixed window",
  fallback: 'default',
  unknown: 'the server decides',
};

/** Estimate against window, as a bar; the numbers and the window's source ride in data attributes for tests and
 * in the title for users. */
export function ContextMeter({ estimate, window, source, reason }: { estimate: number; window: number; source: ContextWindowSource; reason: string | null }) {
  const ratio = window > 0 ? estimate / window : 1;
  const level = ratio > 1 ? 'over' : ratio > 0.8 ? 'high' : 'ok';
  const fmt = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
  return (
    <div
      className={`context-meter ${level}`}
      data-testid="context-meter"
      data-estimate={estimate}
      data-window={window}
      data-source={source}
      title={`About ${estimate} of ${window} tokens of the model's context window (${SOURCE[source]})${reason ? `: ${reason}` : ''}`}
      role="meter"
      aria-label="Context used"
      aria-valuemin={0}
      aria-valuemax={window}
      aria-valuenow={Math.min(estimate, window)}
    >
      <div className="meter-bar">
        <div className="meter-fill" style={{ width: `${Math.min(100, ratio * 100)}%` }} />
      </div>
      <span className="meter-text">
        {fmt(estimate)} / {fmt(window)}
      </span>
      <span className="meter-source" data-testid="context-source">
        {SOURCE[source]}
      </span>
    </div>
  );
}
