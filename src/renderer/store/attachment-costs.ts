/**
 * What each attachment costs as it will be sent, as main worked it out (`attachments:inspect`: its text read once,
 * the chosen pages applied, counted exactly where the server can). Kept per attachment, pages, model and
 * connection, so the chips and the meter agree and a change of model asks again.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { AttachmentInspection } from '../../shared/ipc';
import type { AttachmentBlock } from '../../shared/turn';
import { firebrand } from '../firebrand';
import { errorMessage } from './errors';
import { connectionOf, useStore } from './index';

export type CostState = { status: 'reading' } | { status: 'done'; inspection: AttachmentInspection } | { status: 'failed'; message: string };

export const useAttachmentCosts = create<{ costs: Record<string, CostState> }>(() => ({ costs: {} }));

function keyOf(block: AttachmentBlock, model: string, connectionId: string | undefined): string {
  return `${block.id}|${block.pages ? `${block.pages.from}-${block.pages.to}` : 'all'}|${model}|${connectionId ?? ''}`;
}

/** The key for the model and connection the next message goes to; null when no model is chosen. */
export function currentKey(block: AttachmentBlock): string | null {
  const model = useStore.getState().selectedModel;
  return model ? keyOf(block, model, connectionOf().connectionId) : null;
}

/** Asks main once per key; later calls reuse the answer (or the question in flight). */
export function requestCost(block: AttachmentBlock): void {
  const model = useStore.getState().selectedModel;
  if (!model) return;
  const { connectionId } = connectionOf();
  const key = keyOf(block, model, connectionId);
  if (useAttachmentCosts.getState().costs[key]) return;
  const put = (state: CostState) => useAttachmentCosts.setState((s) => ({ costs: { ...s.costs, [key]: state } }));
  put({ status: 'reading' });
  firebrand()
    .attachments.inspect({ block, model, ...(connectionId ? { connectionId } : {}) })
    .then((inspection) => put({ status: 'done', inspection }))
    .catch((err: unknown) => put({ status: 'failed', message: errorMessage(err) }));
}

/** The cost state of `block` for the current model, asking main if it was never asked. */
export function useCost(block: AttachmentBlock): CostState | undefined {
  const model = useStore((s) => s.selectedModel);
  const active = useStore((s) => s.settings?.activeConnectionId);
  const key = model ? keyOf(block, model, active && active !== 'ollama' ? active : undefined) : null;
  const state = useAttachmentCosts((s) => (key ? s.costs[key] : undefined));
  useEffect(() => {
    if (key) requestCost(block);
    // The key names everything the answer depends on.
  }, [key]);
  return state;
}

/**
 * Tokens for the meter: the known cost, 0 while a document is read or when it cannot be (nothing of it is sent),
 * undefined for an image not measured yet (its fixed budget stands in).
 */
export function costFor(costs: Record<string, CostState>, block: AttachmentBlock): number | undefined {
  const key = currentKey(block);
  const state = key ? costs[key] : undefined;
  if (state?.status === 'done') return state.inspection.tokens;
  return block.kind === 'image' ? undefined : 0;
}
