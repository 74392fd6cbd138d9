/**
 * A summary of the turns before a cut, as a card ready to be written (issue 21): the summarizer lane writes it,
 * then the request with the card in place is measured the way the next one will be, so the card's "before" and
 * "after" are the preflight's numbers. A blank, thinking-only or failed summary becomes an honest error card and
 * nothing is replaced.
 */
import type { CompactionMeta, SummaryFailedMeta } from '../../shared/context-edits';
import type { Turn } from '../../shared/turn';
import { prepareAttachments, type RequestSetup } from '../engine/request-setup';
import { writeSummary } from '../engine/summary-lane';
import { card, withCard } from './cards';
import { summaryBudget, type Cut } from './cut-plan';
import { measureBranch, type Measured } from './measure';
import type { ResolvedTarget, RoomDeps } from './room-target';

export interface SummarizeCutInput {
  setup: RequestSetup;
  branch: readonly Turn[];
  /** The request as it is now (its size is the card's "before"). */
  now: Measured;
  cut: Pick<Cut, 'before' | 'covered' | 'summaries'>;
  /** Who writes the summary, and the name the card gives it. */
  summarizer: ResolvedTarget;
  summarizerName: string;
  /** Where the card goes. */
  at: { conversationId: string; parentId: string | null };
  signal: AbortSignal;
  auto?: { threshold: number };
  from?: { conversationId: string; title: string };
}

export async function summarizeCut(deps: RoomDeps, input: SummarizeCutInput): Promise<{ ok: true; card: Turn; meta: CompactionMeta } | { ok: false; card: Turn }> {
  const { summarizer } = input;
  const at = { id: deps.newId(), conversationId: input.at.conversationId, parentId: input.at.parentId, now: deps.now() };
  await prepareAttachments(deps, input.cut.before);
  const result = await writeSummary(deps, {
    connection: summarizer.connection,
    model: summarizer.model,
    layers: [deps.appLayer, summarizer.alias, summarizer.conversation],
    turns: input.cut.before,
    // Its requests are recorded with the chat whose turns they read (a new chat does not exist yet).
    conversationId: input.branch.at(-1)?.conversationId ?? input.at.conversationId,
    budget: summaryBudget(input.now.window),
    signal: input.signal,
    ...(deps.attachments ? { materialize: deps.attachments.materialize } : {}),
  });
  if (result.kind === 'failed') {
    const meta: SummaryFailedMeta = { reason: 'summary-failed', model: input.summarizerName, why: result.why, ...(result.detail ? { detail: result.detail } : {}), ...(input.auto ? { auto: true } : {}) };
    return { ok: false, card: card('error', meta, at) };
  }
  const meta: CompactionMeta = {
    covered: input.cut.covered,
    ...(input.cut.summaries.length > 0 ? { replaces: input.cut.summaries } : {}),
    summary: result.text,
    tokensBefore: input.now.tokens,
    tokensAfter: input.now.tokens,
    counted: input.now.counted,
    model: input.summarizerName,
    ...(input.auto ? { auto: input.auto } : {}),
    ...(input.from ? { from: input.from } : {}),
  };
  // A continued chat measures itself (its own branch); here the request with the summary in place.
  if (!input.from) {
    const after = await measureBranch(deps, input.setup, withCard(input.branch, 'compaction', meta));
    if (!('kind' in after)) {
      meta.tokensAfter = after.tokens;
      if (after.counted !== input.now.counted) meta.counted = 'estimate';
    }
  }
  return { ok: true, card: card('compaction', meta, at), meta };
}
