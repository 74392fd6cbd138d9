/**
 * What each tool call got back (its result, and any images it returned), keyed by the assistant turn that made
 * the call and the call's id: ids repeat across steps (Ollama's calls are `call_0` in every step), so the id
 * alone would show one step's result on another step's card. A tool turn answers the calls of the nearest
 * assistant turn above it on the branch (approval cards may sit between them).
 */
import { isRefusedAnswer } from '../../../shared/system-turns';
import type { AttachmentBlock, ToolResultBlock, Turn } from '../../../shared/turn';

export interface ToolAnswer {
  result?: ToolResultBlock;
  images: AttachmentBlock[];
  /** Its approval card waits for the user: the call has not run, so it waits for them, not for a result. */
  awaitingApproval?: true;
}

export type ToolAnswers = ReadonlyMap<string, ToolAnswer>;

export const answerKey = (turnId: string, toolCallId: string) => `${turnId}\u0000${toolCallId}`;

/** The answers on a branch (root first), and the turns that need a row of their own. */
export function collectAnswers(turns: readonly Turn[]): { answers: Map<string, ToolAnswer>; shown: Turn[] } {
  const answers = new Map<string, ToolAnswer>();
  const covered = new Set<string>();
  let caller: Turn | undefined;
  for (const turn of turns) {
    if (turn.role === 'assistant') {
      caller = turn;
      for (const b of turn.blocks) if (b.type === 'tool_call') covered.add(answerKey(turn.id, b.id));
      continue;
    }
    if (turn.source === 'tool-approval' && turn.meta['state'] === 'pending') {
      const { turnId, toolCallId } = turn.meta;
      if (typeof turnId === 'string' && typeof toolCallId === 'string') {
        const key = answerKey(turnId, toolCallId);
        answers.set(key, { ...(answers.get(key) ?? { images: [] }), awaitingApproval: true });
      }
      continue;
    }
    if (turn.role !== 'tool' || !caller) continue;
    for (const b of turn.blocks) {
      const id = b.type === 'tool_result' ? b.toolCallId : b.type === 'attachment' ? b.toolCallId : undefined;
      if (id === undefined) continue;
      const key = answerKey(caller.id, id);
      const answer = answers.get(key) ?? { images: [] };
      if (b.type === 'tool_result') answer.result = b;
      else if (b.type === 'attachment') answer.images.push(b);
      answers.set(key, answer);
    }
  }
  const callerOf = new Map<string, string>();
  let last: string | undefined;
  for (const t of turns) {
    if (t.role === 'assistant') last = t.id;
    else if (t.role === 'tool' && last) callerOf.set(t.id, last);
  }
  // A tool turn whose every block shows on its call's card needs no row.
  // An answer the preflight refused on the window was never sent: its refusal card stands in its place, with the ways
  // to make room, and no failed answer with a Retry (context audit #4).
  const shown = turns.filter((t) => {
    if (isRefusedAnswer(t)) return false;
    if (t.role !== 'tool') return true;
    const by = callerOf.get(t.id);
    return t.blocks.some((b) => {
      const id = b.type === 'tool_result' ? b.toolCallId : b.type === 'attachment' ? b.toolCallId : undefined;
      return id === undefined || by === undefined || !covered.has(answerKey(by, id));
    });
  });
  return { answers, shown };
}
