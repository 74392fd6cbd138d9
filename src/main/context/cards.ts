/**
 * The cards a choice writes (src/shared/context-edits.ts), built in one place: the text of each is derived from its
 * meta by `systemTurnText`, so the stored text, search, export and the card say the same thing.
 */
import type { CompactionMeta, ContinuedMeta, DroppedMeta, SummaryFailedMeta } from '../../shared/context-edits';
import type { JsonObject } from '../../shared/json';
import { systemTurnText } from '../../shared/system-turns';
import type { Turn } from '../../shared/turn';

export type CardSource = 'compaction' | 'context-dropped' | 'continued' | 'error';

export function card(source: CardSource, meta: CompactionMeta | DroppedMeta | ContinuedMeta | SummaryFailedMeta, at: { id: string; conversationId: string; parentId: string | null; now: number }): Turn {
  const json = JSON.parse(JSON.stringify(meta)) as JsonObject;
  return {
    id: at.id,
    conversationId: at.conversationId,
    parentId: at.parentId,
    role: 'system',
    source,
    meta: json,
    blocks: [{ type: 'text', text: systemTurnText(source, json) ?? '' }],
    status: 'done',
    createdAt: at.now,
  };
}

/** The branch with an unsaved card after its last turn: what the next request would be with the card written. */
export function withCard(branch: readonly Turn[], source: CardSource, meta: CompactionMeta | DroppedMeta): Turn[] {
  const last = branch.at(-1);
  return [...branch, card(source, meta, { id: 'unsaved-card', conversationId: last?.conversationId ?? '', parentId: last?.id ?? null, now: 0 })];
}
