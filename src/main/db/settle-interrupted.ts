/**
 * What a run that died with the app left open, settled on the next start (DESIGN.md §6; issue 13): a turn that
 * was streaming reloads as `interrupted` with its partial text and any call it was writing ends truncated; an
 * approval card still pending says the app closed, and the calls that waited on it are answered as not run, so
 * no card says "Writing the call…" or "Called" for something that never happened.
 */
import type { Database } from 'better-sqlite3';
import { settleOpenCalls } from '../../shared/reducer';
import type { ToolResultBlock, Turn } from '../../shared/turn';
import type { ConversationStore } from './conversation-store';
import { toTurn, type TurnRow } from './turn-rows';

/** Read at every start; the terms are those of the partial index turns_pending_approvals (migration 0009), so it is used. */
export const PENDING_APPROVALS_SQL =
  "SELECT * FROM turns WHERE source = 'tool-approval' AND json_extract(meta, '$.state') = 'pending' AND role = 'system'";

export function settleInterrupted(db: Database, store: ConversationStore, newId: () => string, now: number): number {
  const streaming = (db.prepare("SELECT * FROM turns WHERE status = 'streaming'").all() as TurnRow[]).map(toTurn);
  for (const turn of streaming) store.updateTurn({ ...turn, status: 'interrupted', blocks: settleOpenCalls(turn.blocks, 'interrupted') });

  const cards = (db.prepare(PENDING_APPROVALS_SQL).all() as TurnRow[]).map(toTurn);
  for (const card of cards) settleApprovalCard(store, card, { meta: { ...card.meta, state: 'interrupted' }, blocks: card.blocks }, APP_CLOSED, newId, now);
  return streaming.length;
}

/** What the results of calls that never ran say: the one that waited (and those after it), and those before it. */
export interface NotRunWords {
  waited: string;
  before: string;
}

const APP_CLOSED: NotRunWords = {
  waited: 'Not run: Firebrand closed while this call waited for your approval.',
  before: 'No result: Firebrand closed before it was kept.',
};

/**
 * Settles an approval card no run waits behind any more (`settled`: its new meta and text), and answers the calls
 * of its step that have no result, so no call card says "Waiting for the result…" and the next request sends none
 * of them unanswered. Also used for a card imported from a file saved while it waited (export/conversation-io.ts).
 */
export function settleApprovalCard(store: ConversationStore, card: Turn, settled: Pick<Turn, 'meta' | 'blocks'>, words: NotRunWords, newId: () => string, now: number): void {
  store.updateTurn({ ...card, ...settled });
  const results = unansweredCalls(store, card, words);
  if (results.length > 0) {
    store.appendRunTurn({ id: newId(), conversationId: card.conversationId, parentId: card.id, role: 'tool', blocks: results, meta: {}, status: 'done', createdAt: now }, now);
  }
}

/** Results for the calls of the card's step that have none: the waiting call and those after it never ran. */
function unansweredCalls(store: ConversationStore, card: Turn, words: NotRunWords): ToolResultBlock[] {
  const branch = store.branch(card.id);
  const step = branch.findLast((t) => t.role === 'assistant');
  if (!step) return [];
  const answered = new Set(branch.flatMap((t) => t.blocks.flatMap((b) => (b.type === 'tool_result' ? [b.toolCallId] : []))));
  let reached = false;
  return step.blocks.flatMap((b) => {
    if (b.type !== 'tool_call' || (b.state !== 'complete' && b.state !== 'invalid') || answered.has(b.id)) return [];
    reached ||= b.id === card.meta.toolCallId;
    return [
      reached
        ? { type: 'tool_result' as const, toolCallId: b.id, name: b.name, content: words.waited, isError: true, notRun: true }
        : { type: 'tool_result' as const, toolCallId: b.id, name: b.name, content: words.before, isError: true },
    ];
  });
}
