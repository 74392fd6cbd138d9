import type { Turn } from '../../shared/turn';

/**
 * The answer Stop aims at in the open branch: the one streaming, else the one whose tool call runs now (a long
 * MCP call streams nothing, yet Stop must reach it: issue 19), else the one whose run waits on a pending
 * tool-approval card (it streams nothing, yet it runs; issue 13). The card hangs below that answer.
 */
export function stoppableTurn(turns: readonly Turn[], toolRunning: (turnId: string) => boolean = () => false): { turn: Turn; waiting: boolean } | undefined {
  const streaming = turns.find((t) => t.status === 'streaming');
  if (streaming) return { turn: streaming, waiting: false };
  const calling = turns.findLast((t) => t.role === 'assistant' && toolRunning(t.id));
  if (calling) return { turn: calling, waiting: false };
  const card = turns.findLastIndex((t) => t.source === 'tool-approval' && t.meta.state === 'pending');
  if (card < 0) return undefined;
  const answer = turns.slice(0, card).findLast((t) => t.role === 'assistant');
  return answer ? { turn: answer, waiting: true } : undefined;
}
