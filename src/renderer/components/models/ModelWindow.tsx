import { useEffect, useState } from 'react';
import type { ContextWindowChoice } from '../../../shared/models';
import { firebrand } from '../../firebrand';
import { useModelsStore } from '../../store/models-slice';
import { formatTokens } from '../../format';
import { reasonOrPointer } from './gpu-line';

/** How many times a fallback is asked again (after 1, 2, 4, 8 and 16 s). */
const RETRIES = 5;

const WHY: Record<ContextWindowChoice['source'], string> = {
  user: 'kept by you',
  recommended: 'the largest that fits your GPU',
  alias: 'set by an alias',
  server: "the server's fixed window",
  fallback: 'the default',
  unknown: 'the server decides',
};

/**
 * The window a model's next message carries, and why, on its row: no model silently gets a window (issue 17:
 * once the GPU size was known every model took the largest that fits, and nothing said so).
 */
export function ModelWindow({ model, connectionId }: { model: string; connectionId: string }) {
  const [choice, setChoice] = useState<ContextWindowChoice | null>(null);
  // A window kept (or forgotten) in Details, or new GPU memory: the row reads it again (models audit #4).
  const version = useModelsStore((s) => s.windowVersion);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A default that came from a failed recommendation (the server busy, the GPU probe slow) is asked again a few
    // times, further apart each time, while the row is shown: no reload needed once the cause has passed.
    const ask = (attempt: number) => {
      firebrand()
        // The active connection's model: llama-server's fixed window, not Ollama's (models audit #3).
        .models.contextWindow({ model, wait: true, ...(connectionId !== 'ollama' ? { connectionId } : {}) })
        .then((c) => {
          if (!live) return;
          setChoice(c);
          if (c.source === 'fallback' && attempt < RETRIES) timer = setTimeout(() => ask(attempt + 1), 1_000 * 2 ** attempt);
        })
        .catch(() => undefined);
    };
    ask(0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [model, connectionId, version]);
  if (!choice) return null;
  // The GPU memory unknown is said once, on the screen's GPU line: each row said it in full (models eyes pass).
  const reason = reasonOrPointer(choice.reason);
  return (
    <span className="mm-window" data-testid="model-window" data-window={choice.contextWindow ?? ''} data-source={choice.source} title={reason ?? undefined}>
      window {choice.contextWindow === null ? '—' : `${formatTokens(choice.contextWindow)} tokens`} · {WHY[choice.source]}
      {reason ? <span className="mm-muted">: {reason}</span> : null}
    </span>
  );
}
