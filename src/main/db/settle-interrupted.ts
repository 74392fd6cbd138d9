/**
 * What a run that died with the app left open, settled on the next start (DESIGN.md §6; issue 13): a turn that
 * was streaming reloads as `interrupted` with its partial text and any call it was writing ends truncated; an
 * approval card still pending says the app closed, and the calls that waited on it are answered as not run, so
 * no card says "Writing the call…" or "Called" for something that never happened. Calls with no result are
 * answered too (durability audit): those an interrupted answer had finished writing (never run), and those of a
 * step whose tools were running (marked in tool_runs; they may have run), so no card waits for a result for good.
 */
import type { Database } from 'better-sqlite3';
import { settleOpenCalls } from '../../shared/reducer';
import { toolApprovalMeta, toolApprovalText } from '../../shared/system-turns';
import { answeredCallKeys, stepCallKey } from '../../shared/tool-steps';
import type { ToolResultBlock, Turn } from '../../shared/turn';
import type { ConversationStore } from './conversation-store';
import { ToolRuns } from './tool-runs';
import type { TurnRow } from './turn-rows';

/** Read at every start; the terms are those of the partial index turns_pending_approvals (migration 0009), so it is used. */
export const PENDING_APPROVALS_SQL =
  "SELECT * FROM turns WHERE source = 'tool-approval' AND json_extract(meta, '$.state') = 'pending' AND role = 'system'";

/**
 * What the last run left open, by id: answers streaming, approval cards pending, steps whose tools ran. Read at
 * start, before anything of this run streams (reads work on a full disk), so a later retry settles only these.
 */
export interface LeftOpen {
  streaming: string[];
  cards: string[];
  toolRuns: string[];
}

export function findLeftOpen(db: Database): LeftOpen {
  return {
    streaming: db.prepare("SELECT id FROM turns WHERE status = 'streaming'").pluck().all() as string[],
    cards: (db.prepare(PENDING_APPROVALS_SQL).all() as TurnRow[]).map((row) => row.id),
    toolRuns: new ToolRuns(db).left(),
  };
}

/**
 * Settles what `left` names, one item per transaction, taking each id out of `left` once it is written: a full
 * disk stops it part way (it throws), and `left` then holds what is still owed (./left-open.ts retries it).
 * Returns how many answers it marked interrupted.
 */
export function settleInterrupted(db: Database, store: ConversationStore, newId: () => string, now: number, left: LeftOpen = findLeftOpen(db)): number {
  let interrupted = 0;
  const settleTurn = db.transaction((id: string) => {
    const turn = store.getTurn(id);
    if (turn?.status !== 'streaming') return;
    store.updateTurn({ ...turn, status: 'interrupted', blocks: settleOpenCalls(turn.blocks, 'interrupted') });
    // Calls it had finished writing never ran: the engine runs a step's tools only once its stream has ended.
    if (turn.role === 'assistant') answerUnansweredCalls(store, turn, APP_CLOSED_MID_ANSWER, newId, now);
    interrupted++;
  });
  while (left.streaming.length > 0) {
    settleTurn(left.streaming[0]!);
    left.streaming.shift();
  }

  const settleCard = db.transaction((id: string) => {
    const card = store.getTurn(id);
    if (card?.meta.state !== 'pending') return;
    settleApprovalCard(store, card, interruptedCard(card), APP_CLOSED, newId, now);
  });
  while (left.cards.length > 0) {
    settleCard(left.cards[0]!);
    left.cards.shift();
  }

  // Steps whose tools were running (after any approval, settled above): their results were never written.
  const toolRuns = new ToolRuns(db);
  const settleRun = db.transaction((turnId: string) => {
    const below = lastCardBelow(db, store, turnId);
    if (below) answerUnansweredCalls(store, below, APP_CLOSED_WHILE_TOOLS_RAN, newId, now);
    toolRuns.end(turnId);
  });
  while (left.toolRuns.length > 0) {
    settleRun(left.toolRuns[0]!);
    left.toolRuns.shift();
  }
  return interrupted;
}

/**
 * Where a step's tool turn goes: below the step, or below the last approval card under it. Undefined when the
 * step is gone, or something else already hangs there (its tool turn was written just before the crash).
 */
function lastCardBelow(db: Database, store: ConversationStore, turnId: string): Turn | undefined {
  const child = db.prepare('SELECT id FROM turns WHERE parent_id = ? ORDER BY created_at, id');
  let at = store.getTurn(turnId);
  for (let depth = 0; at && depth < 1000; depth++) {
    const children = child.all(at.id) as { id: string }[];
    if (children.length === 0) return at;
    const next = children.length === 1 ? store.getTurn(children[0]!.id) : undefined;
    if (next?.role !== 'system' || next.source !== 'tool-approval') return undefined;
    at = next;
  }
  return undefined;
}

/** A pending card as Firebrand's closing left it: its line says so, for the card, search and export (tools audit #3). */
export function interruptedCard(card: Turn): Pick<Turn, 'meta' | 'blocks'> {
  const meta = { ...card.meta, state: 'interrupted' };
  const shown = toolApprovalMeta(meta);
  return { meta, blocks: shown ? [{ type: 'text', text: toolApprovalText(shown) }] : card.blocks };
}

/** What the results of calls that never ran say: the one that waited (and those after it), and those before it. */
export interface NotRunWords {
  waited: string;
  before: string;
  /** Every unanswered call is known not to have run (not only the one that waited and those after it). */
  noneRan?: boolean;
  /** The calls were cut while their tools ran: their cards say Stopped (it may have run), not Failed. */
  cutWhileRunning?: boolean;
}

const APP_CLOSED: NotRunWords = {
  waited: 'Not run: Firebrand closed while this call waited for your approval.',
  before: 'No result: Firebrand closed before it was kept.',
};

const APP_CLOSED_MID_ANSWER: NotRunWords = {
  waited: 'Not run: Firebrand closed before the answer that made this call had ended.',
  before: 'Not run: Firebrand closed before the answer that made this call had ended.',
  noneRan: true,
};

/** A step's results are written together once its last tool returns: which of them had run is not known. */
const APP_CLOSED_WHILE_TOOLS_RAN: NotRunWords = {
  waited: 'No result: Firebrand closed while this step’s tools were running; this call may have run, but its result was not kept.',
  before: 'No result: Firebrand closed while this step’s tools were running; this call may have run, but its result was not kept.',
  cutWhileRunning: true,
};

/**
 * Settles an approval card no run waits behind any more (`settled`: its new meta and text), and answers the calls
 * of its step that have no result, so no call card says "Waiting for the result…" and the next request sends none
 * of them unanswered. Also used for a card imported from a file saved while it waited (export/conversation-io.ts).
 */
export function settleApprovalCard(store: ConversationStore, card: Turn, settled: Pick<Turn, 'meta' | 'blocks'>, words: NotRunWords, newId: () => string, now: number): void {
  store.updateTurn({ ...card, ...settled });
  answerUnansweredCalls(store, card, words, newId, now);
}

/** Hangs a tool turn below `at` (a step or its last card) answering the step's calls that have no result. */
function answerUnansweredCalls(store: ConversationStore, at: Turn, words: NotRunWords, newId: () => string, now: number): void {
  const results = unansweredCalls(store, at, words);
  if (results.length > 0) {
    store.appendRunTurn({ id: newId(), conversationId: at.conversationId, parentId: at.id, role: 'tool', blocks: results, meta: {}, status: 'done', createdAt: now }, now);
  }
}

/** Results for the calls of the card's step that have none: the waiting call and those after it never ran. */
function unansweredCalls(store: ConversationStore, card: Turn, words: NotRunWords): ToolResultBlock[] {
  const branch = store.branch(card.id);
  const step = branch.findLast((t) => t.role === 'assistant');
  if (!step) return [];
  // Only results below this step answer its calls: ids repeat across steps (Ollama's are `call_0`… in every
  // step), and an earlier step's result left a later call waiting for good (tools audit #1).
  const answered = answeredCallKeys(branch);
  let reached = false;
  return step.blocks.flatMap((b) => {
    if (b.type !== 'tool_call' || (b.state !== 'complete' && b.state !== 'invalid') || answered.has(stepCallKey(step.id, b.id))) return [];
    reached ||= words.noneRan === true || b.id === card.meta.toolCallId;
    return [
      reached
        ? { type: 'tool_result' as const, toolCallId: b.id, name: b.name, content: words.waited, isError: true, notRun: true }
        : { type: 'tool_result' as const, toolCallId: b.id, name: b.name, content: words.before, isError: true, ...(words.cutWhileRunning ? { stopped: true } : {}) },
    ];
  });
}
