/**
 * Where older turns can be cut (summarized or left out): before any user message that has something older than
 * it, so a tool call never loses its result and an answer never loses its question. The default cut keeps as many
 * recent turns as fit with a summary and room for the answer; the user can move it. Its numbers are measured the
 * way the next request will be (./measure.ts), exactly where the engine counts.
 */
import { compactionMeta, type DroppedMeta } from '../../shared/context-edits';
import { ANSWER_ROOM } from '../../shared/context-estimate';
import type { CutPlan, CutPoint } from '../../shared/context-ipc';
import { turnText, type Turn } from '../../shared/turn';
import { isSummaryTurn } from '../engine/context-edits';
import { sendableHistory } from '../engine/history';
import type { RequestSetup, RequestSetupDeps } from '../engine/request-setup';
import { UserFacingError } from '../errors';
import { withCard } from './cards';
import { measureBranch, type Measured } from './measure';

/** Tries to move a default cut later when the exact count says the estimate was too hopeful. */
const EXACT_TRIES = 3;

/** The sendable turns before a user message, and what a card covering them names. */
export interface Cut {
  keepFrom: string;
  preview: string;
  /** The turns before the cut as the request carries them now (an earlier summary among them). */
  before: Turn[];
  /** The messages a summary of them stands for (those an earlier summary stood for included). */
  covered: string[];
  /** Earlier summary cards before the cut. */
  summaries: string[];
}

export function cutCandidates(branch: readonly Turn[]): Cut[] {
  const edited = sendableHistory(branch);
  const covers = new Map<string, string[]>();
  for (const t of branch) if (t.source === 'compaction') covers.set(t.id, compactionMeta(t.meta)?.covered ?? []);
  const out: Cut[] = [];
  edited.forEach((turn, i) => {
    if (turn.role !== 'user' || i === 0) return;
    const before = edited.slice(0, i);
    if (!before.some((t) => !isSummaryTurn(t))) return;
    const summaries = before.filter(isSummaryTurn).map((t) => t.id);
    const covered = before.flatMap((t) => (isSummaryTurn(t) ? (covers.get(t.id) ?? []) : [t.id]));
    out.push({ keepFrom: turn.id, preview: previewOf(turn), before, covered, summaries });
  });
  return out;
}

/** The card that leaves a cut's turns out of what is sent (numbers filled in by the caller). */
export function dropMetaFor(cut: Pick<Cut, 'before'>, numbers: Pick<DroppedMeta, 'tokens' | 'tokensBefore' | 'tokensAfter' | 'counted'> = { tokens: 0, tokensBefore: 0, tokensAfter: 0, counted: 'estimate' }): DroppedMeta {
  return { turns: cut.before.map((t) => t.id), count: cut.before.length, items: [], ...numbers };
}

/** How long a summary may be: enough to carry a conversation, small next to the window it has to fit in. */
export function summaryBudget(window: number | undefined): number {
  if (window === undefined) return 1024;
  return Math.max(128, Math.min(1024, Math.floor(window / 8)));
}

export interface ChosenCut {
  cut: Cut;
  plan: CutPlan;
}

/**
 * The cut for `keepFrom` (the user moved it), else the default, with its exact numbers. `now` is the request as it
 * is; `extra` the draft the user has not sent yet.
 */
export async function chooseCut(deps: RequestSetupDeps, setup: RequestSetup, branch: readonly Turn[], now: Measured, opts: { keepFrom?: string | undefined; extra?: number }): Promise<ChosenCut | null> {
  const candidates = cutCandidates(branch);
  if (candidates.length === 0) return null;
  const extra = opts.extra ?? 0;
  const window = now.window;
  const budget = summaryBudget(window);
  const fits = (after: number, plus: number) => window === undefined || after + extra + plus + ANSWER_ROOM <= window;
  const afterOf = async (cut: Cut, exact: boolean) => {
    const m = await measureBranch(deps, setup, withCard(branch, 'context-dropped', dropMetaFor(cut)), { exact });
    return 'kind' in m ? now.tokens : m.tokens;
  };
  let index: number;
  if (opts.keepFrom !== undefined) {
    index = candidates.findIndex((c) => c.keepFrom === opts.keepFrom);
    if (index < 0) throw new UserFacingError('invalid-payload', 'That message is not one the older turns can be cut before; choose another.');
  } else {
    const estimates: number[] = [];
    for (const c of candidates) estimates.push(await afterOf(c, false));
    index = estimates.findIndex((a) => fits(a, budget));
    if (index < 0) index = estimates.findIndex((a) => fits(a, 0));
    if (index < 0) index = candidates.length - 1;
  }
  let after = await afterOf(candidates[index]!, true);
  for (let tries = 0; opts.keepFrom === undefined && !fits(after, budget) && index < candidates.length - 1 && tries < EXACT_TRIES; tries++) {
    index++;
    after = await afterOf(candidates[index]!, true);
  }
  const cut = candidates[index]!;
  return {
    cut,
    plan: {
      keepFrom: cut.keepFrom,
      turnIds: cut.before.map((t) => t.id),
      tokens: Math.max(0, now.tokens - after),
      after: after + extra,
      summaryBudget: budget,
      fitsDropped: fits(after, 0),
      fitsSummarized: fits(after, budget),
    },
  };
}

export function cutPoints(branch: readonly Turn[]): CutPoint[] {
  return cutCandidates(branch).map((c) => ({ turnId: c.keepFrom, preview: c.preview, count: c.before.length }));
}

function previewOf(turn: Turn): string {
  const text = turnText(turn).trim().replace(/\s+/g, ' ');
  const name = turn.blocks.find((b) => b.type === 'attachment');
  const line = text || (name?.type === 'attachment' ? name.name : '');
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
