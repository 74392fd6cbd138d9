import { useState } from 'react';
import { recommendContext, setContextWindow, useModelsStore } from '../../store/models-slice';
import { ContextArithmetic } from './ContextArithmetic';
import { formatBytes, formatTokens } from './format';

/** The context window that fits this model on this GPU, with its arithmetic; the user may choose another. */
export function ContextPanel({ model }: { model: string }) {
  const advice = useModelsStore((s) => (s.advice?.model === model ? s.advice : null));
  const [flash, setFlash] = useState(true);
  const [kvType, setKvType] = useState<'f16' | 'q8_0' | 'q4_0'>('f16');
  const [custom, setCustom] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const keep = async (tokens: number | null, source: 'recommended' | 'user' = 'user') => {
    const reloads = await setContextWindow(model, tokens, source);
    if (reloads === null) return;
    setSaved(tokens === null ? 'The recommendation applies again.' : `Kept ${formatTokens(tokens)} tokens.${reloads ? ' The model reloads with this window on its next use.' : ''}`);
    await recommendContext(model, flash, kvType);
  };
  const rec = advice?.recommendation ?? null;
  return (
    <section className="mm-section" aria-label="Context window" data-testid="context-panel">
      <h4>Context window</h4>
      <div className="mm-row">
        <label><input type="checkbox" checked={flash} onChange={(e) => setFlash(e.target.checked)} /> Flash attention</label>
        <label>
          KV cache{' '}
          <select value={kvType} onChange={(e) => setKvType(e.target.value as 'f16' | 'q8_0' | 'q4_0')} aria-label="KV cache type">
            <option value="f16">f16</option>
            <option value="q8_0">q8_0</option>
            <option value="q4_0">q4_0</option>
          </select>
        </label>
        <button type="button" data-testid="context-recommend" onClick={() => void recommendContext(model, flash, kvType)}>Work it out</button>
      </div>
      {advice && (
        <div data-testid="context-advice">
          <p className="mm-muted" data-testid="context-gpu">
            GPU memory: {advice.gpu.usableBytes !== null ? `${formatBytes(advice.gpu.usableBytes)} ` : ''}({advice.gpu.source === 'override' ? 'set by hand in Settings' : advice.gpu.source})
            {advice.gpu.devices.map((d) => ` · ${d.name} ${formatBytes(d.totalBytes)}${d.integrated ? ' (integrated)' : ''}`).join('')}
            {advice.gpu.notes.map((n) => ` — ${n}`).join('')}
          </p>
          {rec ? (
            <>
              <ContextArithmetic rec={rec} />
              {rec.fits && <button type="button" data-testid="context-use" onClick={() => void keep(rec.contextTokens, 'recommended')}>Use {formatTokens(rec.contextTokens)} tokens</button>}
            </>
          ) : (
            <p className="mm-error" data-testid="context-message">{advice.reason}</p>
          )}
          {advice.stored && <p className="mm-muted" data-testid="context-stored">Kept for this model: {formatTokens(advice.stored.contextWindow)} tokens ({advice.stored.source === 'user' ? 'your choice' : 'recommended'}).</p>}
        </div>
      )}
      <div className="mm-row">
        <input aria-label="Context window in tokens" data-testid="context-custom" inputMode="numeric" placeholder="tokens" value={custom} onChange={(e) => setCustom(e.target.value)} />
        <button type="button" onClick={() => { const n = Number(custom); if (Number.isInteger(n) && n >= 256) void keep(n); }}>Keep this window</button>
        <button type="button" onClick={() => void keep(null)}>Forget</button>
      </div>
      <p className="mm-muted">Changing the window reloads the model: Ollama allocates a new cache for a new num_ctx.</p>
      <p className="mm-muted">The GPU memory every window is worked out from is set in Settings → GPU memory (it applies to all models).</p>
      {saved && <p className="mm-ok" data-testid="context-saved">{saved}</p>}
    </section>
  );
}
