/**
 * What the cards of issue 21 do to a request: a `compaction` card's summary is sent in place of the turns it
 * covers (at the first of them), and a `context-dropped` card's turns and items are left out. The conversation is
 * untouched: these only decide what Assemble reads. A card works on the branch it is on; an edit above it makes a
 * branch without it, which is sent whole again.
 */
import { compactionMeta, compactionText, droppedMeta, leftOutNote, type CompactionMeta, type DroppedItem } from '../../shared/context-edits';
import type { Block, Turn } from '../../shared/turn';

export function applyContextEdits(branch: readonly Turn[]): Turn[] {
  // The latest summary covering a turn wins: a second summary folds the first one in (it covers the first card).
  const summaries = new Map<string, { card: Turn; meta: CompactionMeta }>();
  const coveredBy = new Map<string, string>();
  const dropped = new Set<string>();
  const items = new Map<string, DroppedItem[]>();
  for (const turn of branch) {
    if (turn.role !== 'system') continue;
    if (turn.source === 'compaction') {
      const meta = compactionMeta(turn.meta);
      if (!meta) continue;
      summaries.set(turn.id, { card: turn, meta });
      for (const id of [...meta.covered, ...(meta.replaces ?? [])]) coveredBy.set(id, turn.id);
    } else if (turn.source === 'context-dropped') {
      const meta = droppedMeta(turn.meta);
      if (!meta) continue;
      for (const id of meta.turns) dropped.add(id);
      for (const item of meta.items) items.set(item.turnId, [...(items.get(item.turnId) ?? []), item]);
    }
  }
  if (summaries.size === 0 && dropped.size === 0 && items.size === 0) return [...branch];
  // Each card names only the cards the request then held (a third names the second, not the first, which the second
  // had already replaced): a turn goes to the summary at the end of that chain, or a replaced card came back.
  const latest = (id: string): string | undefined => {
    let by = coveredBy.get(id);
    for (let hops = 0; by !== undefined && coveredBy.has(by) && hops < summaries.size; hops++) by = coveredBy.get(by);
    return by;
  };

  const onBranch = new Set(branch.map((t) => t.id));
  const placed = new Set<string>();
  const out: Turn[] = [];
  const place = (id: string) => {
    const s = summaries.get(id);
    // A summary left out with the oldest turns (a drop past it) is not sent either.
    if (!s || placed.has(id) || dropped.has(id)) return;
    placed.add(id);
    out.push(summaryTurn(s.card, s.meta));
  };
  for (const turn of branch) {
    const by = latest(turn.id);
    if (by !== undefined) {
      place(by);
      continue;
    }
    const own = summaries.get(turn.id);
    if (own) {
      // Its covered turns are not on this branch (a chat continued from another): the summary goes where it is.
      if (!own.meta.covered.some((id) => onBranch.has(id))) place(turn.id);
      continue;
    }
    if (dropped.has(turn.id)) continue;
    const left = items.get(turn.id);
    out.push(left ? withoutItems(turn, left) : turn);
  }
  return out;
}

/** The summary as the model reads it: a system turn with the card's text (meta never goes on the wire). */
function summaryTurn(card: Turn, meta: CompactionMeta): Turn {
  return { ...card, role: 'system', source: 'compaction', blocks: [{ type: 'text', text: compactionText(meta) }], meta: {} };
}

/**
 * A turn with its left-out items replaced by a note: an attachment's block goes (its note joins the text), a tool
 * result keeps its place (its call needs an answer on every wire) with the note as its content.
 */
function withoutItems(turn: Turn, left: readonly DroppedItem[]): Turn {
  const notes: string[] = [];
  const blocks: Block[] = [];
  for (const b of turn.blocks) {
    if (b.type === 'attachment') {
      const item = left.find((i) => i.kind === 'attachment' && i.id === b.id);
      if (item) {
        notes.push(leftOutNote(item));
        continue;
      }
    }
    if (b.type === 'tool_result') {
      const item = left.find((i) => i.kind === 'tool_result' && i.toolCallId === b.toolCallId);
      if (item) {
        blocks.push({ ...b, content: leftOutNote(item) });
        continue;
      }
    }
    blocks.push(b);
  }
  if (notes.length > 0) blocks.push({ type: 'text', text: `${blocks.some((b) => b.type === 'text') ? '\n\n' : ''}${notes.join('\n')}` });
  return { ...turn, blocks };
}

/** Whether a turn is a summary Assemble should fold into the leading system message. */
export function isSummaryTurn(turn: Turn): boolean {
  return turn.role === 'system' && turn.source === 'compaction';
}
