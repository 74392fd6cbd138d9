/** Issue 17: an answer with tool steps gets one footer, under its last step, with numbers over all its steps. */
import { describe, expect, it } from 'vitest';
import { answerRuns } from '../../src/renderer/components/turn/answer-runs';
import type { Turn } from '../../src/shared/turn';

const turn = (id: string, role: Turn['role'], extra: Partial<Turn> = {}): Turn => ({ id, conversationId: 'c', parentId: null, role, blocks: [], meta: {}, status: 'done', createdAt: 1, ...extra });

describe('answerRuns', () => {
  it('puts the footer on the last step of each answer and acts on its first step', () => {
    const steps = [
      turn('u1', 'user'),
      turn('a1', 'assistant', { usage: { outputTokens: 10, generationMs: 1000 } }),
      turn('t1', 'tool'),
      turn('a2', 'assistant', { usage: { outputTokens: 30, generationMs: 1000 } }),
      turn('u2', 'user'),
      turn('a3', 'assistant', { usage: { outputTokens: 5 } }),
    ];
    const runs = answerRuns(steps);
    expect(runs.get('a1')).toMatchObject({ last: false, stats: '' });
    expect(runs.get('a1')?.first.id).toBe('a1');
    expect(runs.get('a2')?.first.id).toBe('a1');
    expect(runs.get('a2')?.last).toBe(true);
    expect(runs.get('a2')?.stats).toBe('40 tokens · 20.0 tok/s');
    expect(runs.get('a3')).toMatchObject({ last: true, stats: '5 tokens' });
  });

  it('shows no numbers while any step of the answer streams', () => {
    const runs = answerRuns([turn('u', 'user'), turn('a1', 'assistant', { usage: { outputTokens: 3 } }), turn('a2', 'assistant', { status: 'streaming' })]);
    expect(runs.get('a2')).toMatchObject({ last: true, stats: '' });
  });
});
