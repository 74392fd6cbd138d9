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

  it('shows no tokens/s under a step that only called a tool, and the answer\'s figures once it answers', () => {
    const call = turn('a1', 'assistant', { blocks: [{ type: 'tool_call', id: 'c1', name: 'add', state: 'complete', argumentsRaw: '{}', arguments: {} }], usage: { outputTokens: 1, generationMs: 800, promptMs: 200 } });
    // The tool runs (or waits for approval): the call is the answer's last step so far.
    expect(answerRuns([turn('u', 'user'), call]).get('a1')).toMatchObject({ last: true, stats: '' });
    const answered = answerRuns([turn('u', 'user'), call, turn('t1', 'tool'), turn('a2', 'assistant', { blocks: [{ type: 'text', text: '5' }], usage: { outputTokens: 3, generationMs: 200 } })]);
    expect(answered.get('a1')?.stats).toBe('');
    expect(answered.get('a2')?.stats).toBe('4 tokens · 4.0 tok/s · first token 200 ms');
  });

  describe('an answer whose later steps have no count from the server', () => {
    const call = turn('a1', 'assistant', { blocks: [{ type: 'tool_call', id: 'c1', name: 'add', state: 'complete', argumentsRaw: '{}', arguments: {} }], usage: { outputTokens: 12, generationMs: 400 }, meta: { timing: { ttftMs: 150 } } });
    // 300 words, about 500 tokens, stopped before the server counted them.
    const words = 'word '.repeat(400);
    const stopped = (meta: Turn['meta']) => turn('a2', 'assistant', { status: 'aborted', blocks: [{ type: 'text', text: words }], meta });

    it('shows main’s count of the whole answer, marked as an estimate, not the first step’s alone', () => {
      const runs = answerRuns([turn('u', 'user'), call, turn('t1', 'tool'), stopped({ timing: { ttftMs: 90, tokens: 412 } })]);
      expect(runs.get('a2')?.stats).toBe('~ 412 tokens · first token 150 ms');
    });

    it('saved before main counted: the first step’s count plus the stopped step’s characters, marked as an estimate', () => {
      const runs = answerRuns([turn('u', 'user'), call, turn('t1', 'tool'), stopped({ timing: { ttftMs: 90 } })]);
      expect(runs.get('a2')?.stats).toBe(`~ ${12 + words.length / 4} tokens · first token 150 ms`);
    });

    it('a placeholder count sent before the stop (Anthropic’s message_start 1) is not taken as the step’s', () => {
      const runs = answerRuns([turn('u', 'user'), call, turn('t1', 'tool'), { ...stopped({}), usage: { outputTokens: 1 } }]);
      expect(runs.get('a2')?.stats).toBe(`~ ${12 + words.length / 4} tokens · first token 150 ms`);
    });
  });
});
