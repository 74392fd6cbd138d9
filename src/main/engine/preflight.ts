import { estimateTokens, measureTurns, type AttachmentCost } from '../../shared/context-estimate';
import type { Turn } from '../../shared/turn';

/** How many of the largest items a `context-refused` card lists. */
const LARGEST = 3;

/** One of the request's largest parts: what it is, the turn it is in, and its calibrated estimate. */
export type LargestItem = { label: string; turnId: string; tokens: number };

/**
 * The biggest things in the request, so the refusal can say what to remove: each attachment on its own, and
 * each message's text. Sizes are the calibrated estimate of that item alone, attachments as they are sent.
 */

export function largestItems(turns: readonly Turn[], calibrate: (raw: number) => number, cost?: AttachmentCost): LargestItem[] {
  const items: { label: string; turnId: string; tokens: number }[] = [];
  turns.forEach((turn, i) => {
    const text = { ...turn, blocks: turn.blocks.filter((b) => b.type !== 'attachment') };
    const own = measureTurns([text]);
    items.push({ label: `${turn.role} message ${i + 1}`, turnId: turn.id, tokens: calibrate(estimateTokens(own)) });
    for (const b of turn.blocks) {
      if (b.type !== 'attachment') continue;
      const m = measureTurns([{ ...turn, blocks: [b] }], cost);
      items.push({ label: `attachment ${b.name}`, turnId: turn.id, tokens: calibrate(estimateTokens({ ...m, messages: 0 })) });
    }
  });
  return items
    .sort((a, b) => b.tokens - a.tokens)
    .slice(0, LARGEST)
    .map((i) => ({ label: i.label, turnId: i.turnId, tokens: i.tokens }));
}
