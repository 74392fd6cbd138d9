import { useState } from 'react';
import { keepWindow, useLibraryStore } from '../../store/library-slice';
import { ContextArithmetic } from '../models/ContextArithmetic';
import { formatTokens } from '../models/format';

/** A built-in model's window: the same arithmetic as for Ollama; here it decides what Firebrand allocates. */
export function LibraryContext({ file }: { file: string }) {
  const advice = useLibraryStore((s) => (s.advice?.model === file ? s.advice : null));
  const [custom, setCustom] = useState('');
  if (!advice) return <p className="mm-muted">Working out what fits…</p>;
  const rec = advice.recommendation;
  return (
    <section className="mm-section" aria-label={`Context window of ${file}`} data-testid="library-context-panel">
      <p className="mm-muted" data-testid="context-gpu">Memory: {advice.gpu.source}{advice.gpu.notes.map((n) => ` — ${n}`).join('')}</p>
      {rec ? <ContextArithmetic rec={rec} /> : <p className="mm-error" data-testid="context-message">{advice.reason}</p>}
      {advice.stored && <p className="mm-muted" data-testid="context-stored">Kept for this model: {formatTokens(advice.stored.contextWindow)} tokens (your choice).</p>}
      <div className="mm-row">
        <input aria-label="Context window in tokens" inputMode="numeric" placeholder="tokens" value={custom} onChange={(e) => setCustom(e.target.value)} />
        <button type="button" onClick={() => { const n = Number(custom); if (Number.isInteger(n) && n >= 256) void keepWindow(file, n); }}>Keep this window</button>
        <button type="button" onClick={() => void keepWindow(file, null)}>Use what fits</button>
      </div>
    </section>
  );
}
