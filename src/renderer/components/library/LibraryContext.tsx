import { useState } from 'react';
import type { ContextAdvice } from '../../../shared/models';
import { forgetLibraryNote, keepWindow, useLibraryStore } from '../../store/library-slice';
import { ContextArithmetic } from '../models/ContextArithmetic';
import { formatTokens } from '../models/format';
import { unknownMemoryLine } from '../models/gpu-line';
import { typedWindow } from '../models/typed-window';

/** A built-in model's window: the same arithmetic as for Ollama; here it decides what Firebrand allocates. */
export function LibraryContext({ file }: { file: string }) {
  const advice = useLibraryStore((s) => (s.advice?.model === file ? s.advice : null));
  const [custom, setCustom] = useState('');
  // Why the last window was not kept (models audit #2, #4), beside the button.
  const [problem, setProblem] = useState<string | null>(null);
  const keep = async (tokens: number | null) => setProblem(await keepWindow(file, tokens));
  const keepTyped = () => {
    const typed = typedWindow(custom);
    if (typed.problem === undefined) return void keep(typed.tokens);
    forgetLibraryNote();
    setProblem(typed.problem);
  };
  if (!advice) return <p className="mm-muted">Working out what fits…</p>;
  return (
    <section className="mm-section" aria-label={`Context window of ${file}`} data-testid="library-context-panel">
      <LibraryMemory advice={advice} />
      {advice.stored && <p className="mm-muted" data-testid="context-stored">Kept for this model: {formatTokens(advice.stored.contextWindow)} tokens (your choice).</p>}
      <div className="mm-row">
        <input aria-label="Context window in tokens" inputMode="numeric" placeholder="tokens" value={custom} onChange={(e) => setCustom(e.target.value)} />
        <button type="button" data-testid="library-context-keep" onClick={keepTyped}>Keep this window</button>
        <button type="button" onClick={() => void keep(null)}>Use what fits</button>
      </div>
      {problem && <p role="alert" className="mm-error" data-testid="library-context-problem">{problem}</p>}
      <p className="mm-muted">Changing the window reloads the model if it is loaded, on its next answer: the engine makes a new cache for the new window.</p>
    </section>
  );
}

/**
 * The memory a built-in model may use and the window worked out from it. Unknown (no GPU found, the engine not
 * started), it is said once, with where to set it: there is no memory to show, nor arithmetic (unknownMemoryLine).
 */
export function LibraryMemory({ advice }: { advice: ContextAdvice }) {
  if (advice.gpu.usableBytes === null) return <p className="mm-warn" data-testid="context-message">{unknownMemoryLine(advice.gpu)}</p>;
  const rec = advice.recommendation;
  return (
    <>
      <p className="mm-muted" data-testid="context-gpu">Memory: {advice.gpu.source}{advice.gpu.notes.map((n) => ` — ${n}`).join('')}</p>
      {rec ? <ContextArithmetic rec={rec} /> : <p className="mm-error" data-testid="context-message">{advice.reason}</p>}
    </>
  );
}
