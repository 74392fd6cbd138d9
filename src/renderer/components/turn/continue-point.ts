/**
 * Where Continue is offered: on the last answer of the branch (round 6). An answer Firebrand was killed in while it
 * held a complete tool call gets its calls answered "Not run" by a tool turn below it at the next start
 * (db/settle-interrupted.ts), so the chat can go on: the servers refuse a call sent without its result. That tool
 * turn made the answer no longer the last turn, and Continue went, though the kept text could be continued as well
 * as any other: Continue goes below the tool turn, and the model reads that the call never ran. Pure.
 */
import type { Turn } from '../../../shared/turn';

/**
 * Whether `turnId` is the branch's last answer: nothing after it but tool turns saying its calls never ran. Read
 * from the end (each answer of a long chat asks at every store change), so it costs the trailing tool turns only.
 */
export function isContinuePoint(turns: readonly Turn[], turnId: string): boolean {
  let i = turns.length - 1;
  while (i > 0 && saysNotRun(turns[i]!) && turns[i]!.parentId === turns[i - 1]!.id) i--;
  return i >= 0 && turns[i]!.id === turnId;
}

function saysNotRun(turn: Turn): boolean {
  return turn.role === 'tool' && turn.blocks.length > 0 && turn.blocks.every((b) => b.type === 'tool_result' && b.notRun === true);
}
