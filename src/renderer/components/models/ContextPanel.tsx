import { useState } from 'react';
import { recommendContext, setContextWindow, useModelsStore } from '../../store/models-slice';
import { ContextArithmetic } from './ContextArithmetic';
import { formatTokens } from './format';
import { gpuLines } from './gpu-line';
import { typedWindow } from './typed-window';
import { windowFitNote } from './window-fit';

/** The context window that fits this model on this GPU, with its arithmetic; the user may choose another. */
export function ContextPanel({ model }: { model: string }) {
  const advice = useModelsStore((s) => (s.advice?.model === model ? s.advice : null));
  const [flash, setFlash] = useState(true);
  const [kvType, setKvType] = useState<'f16' | 'q8_0' | 'q4_0'>('f16');
  const [custom, setCustom] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  // Why the last window was not kept (models audit #2, #4): said beside the button, and the last "Kept …" goes.
  const [problem, setProblem] = useState<string | null>(null);
  const keep = async (tokens: number | null, source: 'recommended' | 'user' = 'user') => {
    setSaved(null);
    setProblem(null);
    const result = await setContextWindow(model, tokens, source);
    if ('refused' in result) return setProblem(result.refused);
    setSaved(tokens === null ? 'The recommendation applies again.' : `Kept ${formatTokens(tokens)} tokens.${result.reloads ? ' The model reloads with this window on its next use.' : ''}`);
    await recommendContext(model, flash, kvType);
  };
  const keepTyped = () => {
    const typed = typedWindow(custom);
    if (typed.problem === undefined) return void keep(typed.tokens);
    setSaved(null);
    setProblem(typed.problem);
  };
  const rec = advice?.recommendation ?? null;
  const gpu = advice ? gpuLines(advice) : null;
  // Said while the window is typed, and for the one kept: a window past the GPU is allowed, never silent.
  const typed = typedWindow(custom);
  const typedFit = typed.problem === undefined ? windowFitNote(rec, typed.tokens) : null;
  const storedFit = advice?.stored ? windowFitNote(rec, advice.stored.contextWindow) : null;
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
          {gpu?.facts && <p className="mm-muted" data-testid="context-gpu">{gpu.facts}</p>}
          {rec ? (
            <>
              <ContextArithmetic rec={rec} />
              {rec.fits && <button type="button" data-testid="context-use" onClick={() => void keep(rec.contextTokens, 'recommended')}>Use {formatTokens(rec.contextTokens)} tokens</button>}
            </>
          ) : (
            <p className="mm-error" data-testid="context-message">{gpu?.problem}</p>
          )}
          {advice.stored && <p className="mm-muted" data-testid="context-stored">Kept for this model: {formatTokens(advice.stored.contextWindow)} tokens ({advice.stored.source === 'user' ? 'your choice' : 'recommended'}).</p>}
          {storedFit && <p className="mm-warn" data-testid="context-stored-fit">{storedFit}</p>}
        </div>
      )}
      <div className="mm-row">
        <input aria-label="Context window in tokens" data-testid="context-custom" inputMode="numeric" placeholder="tokens" value={custom} onChange={(e) => setCustom(e.target.value)} />
        <button type="button" data-testid="context-keep" onClick={keepTyped}>Keep this window</button>
        <button type="button" onClick={() => void keep(null)}>Forget</button>
      </div>
      {typedFit && <p className="mm-warn" role="status" data-testid="context-typed-fit">{typedFit}</p>}
      {problem && <p role="alert" className="mm-error" data-testid="context-problem">{problem}</p>}
      <p className="mm-muted">Changing the window reloads the model: Ollama allocates a new cache for a new num_ctx.</p>
      <p className="mm-muted">The GPU memory every window is worked out from is set in Settings → GPU memory (it applies to all models).</p>
      {saved && <p className="mm-ok" data-testid="context-saved">{saved}</p>}
    </section>
  );
}
