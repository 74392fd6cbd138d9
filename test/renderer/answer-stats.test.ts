import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { answerStats, formatStats } from '../../src/renderer/components/turn/answer-stats';
import { noteSent, noteTurnPart, turnTiming } from '../../src/renderer/store/turn-timings';

const turn = (id: string, usage: Turn['usage']): Turn => ({
  id,
  conversationId: 'c',
  parentId: null,
  role: 'assistant',
  blocks: [],
  meta: {},
  status: 'done',
  createdAt: 0,
  ...(usage ? { usage } : {}),
});

describe('answer stats', () => {
  it('uses the server usage for tokens and speed, and its prompt time when this window did not stream the answer', () => {
    const stats = answerStats(turn('loaded', { outputTokens: 100, generationMs: 2000, promptMs: 150 }));
    expect(stats).toEqual({ tokens: 100, tokensPerSecond: 50, ttftMs: 150 });
    expect(formatStats(stats)).toEqual(['100 tokens', '50.0 tok/s', 'first token 150 ms']);
  });

  it('measures time to first token and each reasoning run with its own clock when it streamed here', () => {
    noteSent('live', 1000);
    noteTurnPart('live', { type: 'reasoning-start', id: 'r', origin: 'native' }, 1100);
    noteTurnPart('live', { type: 'reasoning-delta', id: 'r', delta: 'hm' }, 1400);
    noteTurnPart('live', { type: 'text-start', id: 't' }, 4400);
    noteTurnPart('live', { type: 'text-delta', id: 't', delta: 'Hi' }, 4500);
    expect(answerStats(turn('live', { promptMs: 5 })).ttftMs).toBe(400);
    expect(turnTiming('live')?.reasoning).toEqual([{ start: 1100, end: 4400 }]);
  });

  it('says nothing it does not know', () => {
    expect(formatStats(answerStats(turn('none', undefined)))).toEqual([]);
  });
});
