/**
 * Where older turns can be cut (summarized or left out): before any user message that has something older than
 * it, so a tool call never loses its result and an answer never loses its question. The default cut keeps as many
 * recent turns as fit with a summary and room for the answer; the user can move it. Its numbers are measured the
 * way the next request will be (./measure.ts), exactly where the engine counts.
 */
import { compactionMeta, type DroppedMeta } from '../../shared/context-edits';
import { ANSWER_ROOM, fitsWindow } from '../../shared/context-estimate';
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
  /** How many turns `before` holds. */
  count: number;
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
  // What lies before each user message is gathered as the walk goes (a rescan per candidate was quadratic: about
  // 2.5 s of main's event loop for a 2,000-turn chat, on every open of it: see README, Benchmarks). Each cut's
  // lists are taken from those only when asked for (both only grow, so a cut's are their first entries): a copy
  // per candidate was quadratic in memory (about 16 MB of arrays for a 2,000-turn chat, twice per plan) and the
  // plan asks for a few of them.
  const summaries: string[] = [];
  const covered: string[] = [];
  // Each message once: a card written before the fix of chained summaries may name some several times.
  const seen = new Set<string>();
  const cover = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    covered.push(id);
  };
  let hasMessage = false;
  edited.forEach((turn, i) => {
    if (turn.role === 'user' && i > 0 && hasMessage) out.push(lazyCut(turn, edited, i, covered, summaries));
    if (isSummaryTurn(turn)) {
      summaries.push(turn.id);
      for (const id of covers.get(turn.id) ?? []) cover(id);
    } else {
      hasMessage = true;
      cover(turn.id);
    }
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
  // The default cut aims to leave room for a real answer; whether a cut fits is the one rule the meter, Send and
  // the preflight use (context audit #2), so the plan never says "does not fit" of what Send would send.
  const aim = (after: number, plus: number) => window === undefined || after + extra + plus + ANSWER_ROOM <= window;
  const fits = (after: number, plus: number) => fitsWindow(after + extra + plus, window);
  const afterOf = async (cut: Cut, exact: boolean) => {
    await letOthersRun();
    const m = await measureBranch(deps, setup, withCard(branch, 'context-dropped', dropMetaFor(cut)), { exact });
    return 'kind' in m ? now.tokens : m.tokens;
  };
  let index: number;
  if (opts.keepFrom !== undefined) {
    index = candidates.findIndex((c) => c.keepFrom === opts.keepFrom);
    if (index < 0) throw new UserFacingError('invalid-payload', 'That message is not one the older turns can be cut before; choose another.');
  } else {
    const estimates = new Map<number, number>();
    const estimate = async (i: number) => estimates.get(i) ?? estimates.set(i, await afterOf(candidates[i]!, false)).get(i)!;
    index = await firstFitting(candidates.length, async (i) => aim(await estimate(i), budget));
    if (index < 0) index = await firstFitting(candidates.length, async (i) => aim(await estimate(i), 0));
    if (index < 0) index = candidates.length - 1;
  }
  let after = await afterOf(candidates[index]!, true);
  for (let tries = 0; opts.keepFrom === undefined && !aim(after, budget) && index < candidates.length - 1 && tries < EXACT_TRIES; tries++) {
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
      latest: index === candidates.length - 1,
    },
  };
}

/**
 * Lets what came in meanwhile (a chat being opened) run between a plan's measures: each assembles the whole
 * request, and a plan of a 2,000-turn chat does a dozen back to back, which held a click on another chat for
 * their sum, ~100-250 ms on a busy machine (bench/long-chat); now for one of them at most.
 */
export function letOthersRun(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The first of `n` candidates for which `ok` holds, or -1. A later cut keeps fewer turns, so what is left to send
 * only falls as the index grows and `ok` (it fits) holds from some index on: bisection finds the index a scan would
 * with log n measures of the whole request instead of n (each measure assembles the request: linear in the chat).
 */
async function firstFitting(n: number, ok: (i: number) => Promise<boolean>): Promise<number> {
  if (n === 0 || !(await ok(n - 1))) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (await ok(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function cutPoints(branch: readonly Turn[]): CutPoint[] {
  return cutCandidates(branch).map((c) => ({ turnId: c.keepFrom, preview: c.preview, count: c.count }));
}

/** The cut before `turn` (at `at` of `edited`), its lists read from the walk's lists as they are now, when asked. */
function lazyCut(turn: Turn, edited: readonly Turn[], at: number, covered: readonly string[], summaries: readonly string[]): Cut {
  const coveredCount = covered.length;
  const summaryCount = summaries.length;
  let before: Turn[] | undefined;
  let coveredNow: string[] | undefined;
  let summariesNow: string[] | undefined;
  return {
    keepFrom: turn.id,
    preview: previewOf(turn),
    count: at,
    get before() {
      return (before ??= edited.slice(0, at));
    },
    get covered() {
      return (coveredNow ??= covered.slice(0, coveredCount));
    },
    get summaries() {
      return (summariesNow ??= summaries.slice(0, summaryCount));
    },
  };
}

function previewOf(turn: Turn): string {
  const text = turnText(turn).trim().replace(/\s+/g, ' ');
  const name = turn.blocks.find((b) => b.type === 'attachment');
  const line = text || (name?.type === 'attachment' ? name.name : '');
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
