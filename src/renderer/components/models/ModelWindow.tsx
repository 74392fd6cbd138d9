import { useEffect, useState } from 'react';
import type { ContextWindowChoice } from '../../../shared/models';
import { firebrand } from '../../firebrand';
import { formatTokens } from '../../format';

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
export function ModelWindow({ model }: { model: string }) {
  const [choice, setChoice] = useState<ContextWindowChoice | null>(null);
  useEffect(() => {
    let live = true;
    firebrand()
      .models.contextWindow({ model, wait: true })
      .then((c) => live && setChoice(c))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [model]);
  if (!choice) return null;
  return (
    <span className="mm-window" data-testid="model-window" data-window={choice.contextWindow ?? ''} data-source={choice.source} title={choice.reason ?? undefined}>
      window {choice.contextWindow === null ? '—' : `${formatTokens(choice.contextWindow)} tokens`} · {WHY[choice.source]}
      {choice.reason && choice.source !== 'user' ? <span className="mm-muted">: {choice.reason}</span> : null}
    </span>
  );
}
