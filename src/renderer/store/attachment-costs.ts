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

/**
 * The most costs kept. One entry per attachment, pages, model and connection ever shown grew for the life of the
 * page (every chat opened, every model tried), and the whole record is copied on each answer. The ones asked for
 * longest ago go first; far more than one chat's attachments fit, and a cost dropped while still shown is asked
 * for again (useCost).
 */
export const COSTS_KEPT = 1000;
/** Keys by last use, oldest first: a cost the open chat or the composer asks for again moves to the end. */
const lastUsed = new Map<string, true>();

function touch(key: string): void {
  lastUsed.delete(key);
  lastUsed.set(key, true);
}

/** The costs with `key` set, less the least recently used beyond COSTS_KEPT. */
function withCost(costs: Record<string, CostState>, key: string, state: CostState): Record<string, CostState> {
  // An answer keeps the place its question took. One let go while asked is dropped: taken back, it would push out
  // another question in flight, whose answer would do the same. Still shown, useCost asks again.
  if (state.status !== 'reading' && !lastUsed.has(key)) return costs;
  if (state.status === 'reading') touch(key);
  const next = { ...costs, [key]: state };
  for (const old of lastUsed.keys()) {
    if (lastUsed.size <= COSTS_KEPT) break;
    lastUsed.delete(old);
    delete next[old];
  }
  return next;
}

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
  if (useAttachmentCosts.getState().costs[key]) {
    touch(key);
    return;
  }
  const put = (state: CostState) => useAttachmentCosts.setState((s) => ({ costs: withCost(s.costs, key, state) }));
  put({ status: 'reading' });
  firebrand()
    .attachments.inspect({ block, model, ...(connectionId ? { connectionId } : {}) })
    .then((inspection) => put({ status: 'done', inspection }))
    .catch((err: unknown) => put({ status: 'failed', message: errorMessage(err) }));
}

/**
 * Forgets that the file with `digest` could not be read, for every model: it was attached again. Its reading may have
 * timed out or its reader crashed, which need not happen again (main reads it again; what the file is, such as a
 * password, main answers at once). The failure was kept, and attaching the file again changed nothing until a
 * reload (documents audit #3). A chip still showing it asks again (useCost).
 */
export function forgetUnreadable(digest: string): void {
  useAttachmentCosts.setState((s) => {
    const gone = Object.keys(s.costs).filter((k) => k.startsWith(`${digest}|`) && unreadable(s.costs[k]));
    if (gone.length === 0) return s;
    const costs = { ...s.costs };
    for (const k of gone) {
      delete costs[k];
      lastUsed.delete(k);
    }
    return { costs };
  });
}

const unreadable = (state: CostState | undefined) => state?.status === 'failed' || (state?.status === 'done' && state.inspection.error !== null);

/** The cost state of `block` for the current model, asking main if it was never asked. */
export function useCost(block: AttachmentBlock): CostState | undefined {
  const model = useStore((s) => s.selectedModel);
  const active = useStore((s) => s.settings?.activeConnectionId);
  const key = model ? keyOf(block, model, active && active !== 'ollama' ? active : undefined) : null;
  const state = useAttachmentCosts((s) => (key ? s.costs[key] : undefined));
  const missing = state === undefined;
  useEffect(() => {
    if (key) requestCost(block);
    // The key names everything the answer depends on; a cost let go while shown (COSTS_KEPT) is asked again.
  }, [key, missing]);
  return state;
}

/**
 * Tokens for the meter: the known cost, 0 while a document is read or when it cannot be (nothing of it is sent),
 * undefined for an image not measured yet (its fixed budget stands in). In the character rule's scale, which the
 * meter multiplies by `ratio` (what the server's counts taught of this model): a count the server made with the
 * model's tokenizer is already in the model's tokens, so it is divided by it here, or it was scaled twice (a file
 * llama-server counted at 4K was "about 28K tokens" and refused).
 */
export function costFor(costs: Record<string, CostState>, block: AttachmentBlock, ratio = 1): number | undefined {
  const key = currentKey(block);
  const state = key ? costs[key] : undefined;
  if (state?.status === 'done') return state.inspection.tokensSource === 'exact' && ratio > 0 ? state.inspection.tokens / ratio : state.inspection.tokens;
  return block.kind === 'image' ? undefined : 0;
}
