/** Where a chat can be cut: every user message with a message before it, with what lies before it (cut-plan.ts). */
import { describe, expect, it } from 'vitest';
import { cutCandidates } from '../../../src/main/context/cut-plan';
import type { Turn } from '../../../src/shared/turn';

function chat(roles: ('user' | 'assistant')[]): Turn[] {
  let parentId: string | null = null;
  return roles.map((role, i) => {
    const turn: Turn = { id: `t${i}`, conversationId: 'c', parentId, role, blocks: [{ type: 'text', text: `${role} ${i}` }], meta: {}, status: 'done', createdAt: i };
    parentId = turn.id;
    return turn;
  });
}

describe('cut candidates', () => {
  it('offers a cut before each later question, with every turn before it', () => {
    const turns = chat(['user', 'assistant', 'user', 'assistant', 'assistant', 'user', 'assistant']);
    const cuts = cutCandidates(turns);
    expect(cuts.map((c) => c.keepFrom)).toEqual(['t2', 't5']);
    expect(cuts.map((c) => c.before.map((t) => t.id))).toEqual([['t0', 't1'], ['t0', 't1', 't2', 't3', 't4']]);
    expect(cuts[1]!.covered).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(cuts[1]!.summaries).toEqual([]);
    // Each cut owns its lists: the walk that gathers them does not share them between cuts.
    expect(cuts[0]!.covered).toEqual(['t0', 't1']);
  });

  it('lists the cuts of a 2,000-turn chat, the last one keeping only the last question', () => {
    const turns = chat(Array.from({ length: 2_000 }, (_, i) => (i % 2 === 0 ? 'user' : 'assistant')));
    const cuts = cutCandidates(turns);
    expect(cuts).toHaveLength(999);
    expect(cuts.at(-1)!.keepFrom).toBe('t1998');
    expect(cuts.at(-1)!.before).toHaveLength(1_998);
  });
});
