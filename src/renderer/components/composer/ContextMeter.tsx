/** Estimate against window, as a bar; the numbers ride in data attributes for tests and in the title for users. */
export function ContextMeter({ estimate, window }: { estimate: number; window: number }) {
  const ratio = window > 0 ? estimate / window : 1;
  const level = ratio > 1 ? 'over' : ratio > 0.8 ? 'high' : 'ok';
  const fmt = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
  return (
    <div
      className={`context-meter ${level}`}
      data-testid="context-meter"
      data-estimate={estimate}
      data-window={window}
      title={`About ${estimate} of ${window} tokens of the model's context window`}
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
    </div>
  );
}
