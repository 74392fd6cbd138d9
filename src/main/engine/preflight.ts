import { estimateTokens, measureTurns, type AttachmentCost } from '../../shared/context-estimate';
import type { LargestPart } from '../../shared/system-turns';
import type { Turn } from '../../shared/turn';

/** How many of the largest items a `context-refused` card lists. */
const LARGEST = 3;

/** One of the request's largest parts: what it is, the turn it is in, its calibrated estimate, how to leave it out. */
export type LargestItem = LargestPart & { turnId: string };

/**
 * The biggest things in the request, so the refusal can say what to remove: each attachment and each tool result
 * on its own (those can be left out of what is sent, issue 21), and each message's own text. Sizes are the
 * calibrated estimate of that item alone, attachments as they are sent.
 */
export function largestItems(turns: readonly Turn[], calibrate: (raw: number) => number, cost?: AttachmentCost, limit = LARGEST): LargestItem[] {
  const items: LargestItem[] = [];
  turns.forEach((turn, i) => {
    const text = { ...turn, blocks: turn.blocks.filter((b) => b.type !== 'attachment' && b.type !== 'tool_result') };
    const own = measureTurns([text]);
    // A tool turn is nothing but its results, each listed below.
    if (turn.role !== 'tool') items.push({ label: `${turn.role} message ${i + 1}`, turnId: turn.id, tokens: calibrate(estimateTokens(own)) });
    for (const b of turn.blocks) {
      if (b.type === 'attachment') {
        const m = measureTurns([{ ...turn, blocks: [b] }], cost);
        items.push({ label: `attachment ${b.name}`, turnId: turn.id, tokens: calibrate(estimateTokens({ ...m, messages: 0 })), drop: { kind: 'attachment', id: b.id, name: b.name } });
      } else if (b.type === 'tool_result' && !b.notRun) {
        const m = measureTurns([{ ...turn, blocks: [b] }]);
        items.push({ label: `result of ${b.name}`, turnId: turn.id, tokens: calibrate(estimateTokens(m)), drop: { kind: 'tool_result', toolCallId: b.toolCallId, name: b.name } });
      }
    }
  });
  return items.sort((a, b) => b.tokens - a.tokens).slice(0, limit);
}
