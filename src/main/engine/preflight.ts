import { estimateTokens, measureTurns, type AttachmentCost } from '../../shared/context-estimate';
import type { LargestPart, RefusalParts } from '../../shared/system-turns';
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

/**
 * What takes the room in a refused request, by what the user can act on (context audit #1): the tool definitions,
 * the system prompt (the identity turn, summaries joined into it), the message being answered and its files, and
 * the earlier turns, whatever of the total is left. Each part is calibrated as the estimate is.
 */
export function refusalPartsOf(turns: readonly Turn[], total: number, toolChars: number, calibrate: (raw: number) => number, cost?: AttachmentCost): RefusalParts {
  const parts: RefusalParts = {};
  if (toolChars > 0) parts.tools = calibrate(estimateTokens({ chars: toolChars, images: 0, messages: 0, attachmentTokens: 0 }));
  const identity = turns[0]?.role === 'system' ? turns[0] : undefined;
  if (identity) parts.system = calibrate(estimateTokens(measureTurns([identity])));
  const at = turns.findLastIndex((t) => t.role === 'user');
  const message = at >= 0 ? turns[at]! : undefined;
  if (message) {
    parts.message = calibrate(estimateTokens(measureTurns([{ blocks: message.blocks.filter((b) => b.type !== 'attachment') }])));
    const files = message.blocks.filter((b) => b.type === 'attachment');
    if (files.length > 0) parts.files = calibrate(estimateTokens({ ...measureTurns([{ blocks: files }], cost), messages: 0 }));
  }
  const earlier = turns.slice(identity ? 1 : 0).filter((t) => t !== message);
  if (earlier.length > 0) parts.earlier = Math.max(0, total - (parts.tools ?? 0) - (parts.system ?? 0) - (parts.message ?? 0) - (parts.files ?? 0));
  return parts;
}
