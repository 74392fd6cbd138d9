import { describe, expect, it } from 'vitest';
import { applyParts } from '../../src/shared/reducer';
import type { Turn } from '../../src/shared/turn';
import { answerStats, formatStats } from '../../src/renderer/components/turn/answer-stats';
import { noteTurnPart, turnTiming } from '../../src/renderer/store/turn-timings';

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

  // Only for the live "Thinking… N s": "Thought for N s" is the figure main saved (ThinkingBlock.tsx).
  it('notes when each reasoning run started when it streamed here', () => {
    noteTurnPart('live', { type: 'reasoning-start', id: 'r', origin: 'native' }, 1100);
    noteTurnPart('live', { type: 'reasoning-delta', id: 'r', delta: 'hm' }, 1400);
    noteTurnPart('live', { type: 'text-start', id: 't' }, 4400);
    noteTurnPart('live', { type: 'reasoning-start', id: 'r2', origin: 'native' }, 5000);
    expect(turnTiming('live')?.reasoning).toEqual([{ start: 1100 }, { start: 5000 }]);
  });

  // Before: live, "first token" was the page's clock (from Send to the token reaching the page, 3500 ms here); after
  // a reload, main's (from the request leaving to the token, 320 ms): two numbers for one answer.
  it('shows the first token main saved with the answer, the same whether it streamed here or was loaded', () => {
    noteTurnPart('streamed', { type: 'text-start', id: 't' }, 4400);
    noteTurnPart('streamed', { type: 'text-delta', id: 't', delta: 'Hi' }, 4500);
    const usage = { outputTokens: 2, generationMs: 1000, promptMs: 90 };
    // Its finish came, main's saved turn not yet: no figure that the saved one would replace a moment later.
    expect(answerStats(turn('streamed', usage)).ttftMs).toBeUndefined();
    const saved = { ...turn('streamed', usage), meta: { timing: { ttftMs: 320, reasoningMs: [] } } };
    expect(formatStats(answerStats(saved))).toEqual(['2 tokens', '2.0 tok/s', 'first token 320 ms']);
    expect(answerStats({ ...saved, id: 'loaded-later' })).toEqual(answerStats(saved));
  });

  // Before: main's figure came only with the saved answer, so the footer of an answer whose end the page had and whose
  // saved turn it had not yet said no first token. Main sends it as the first token comes (a `timing` part).
  it("shows main's first token from the figure it sent while the answer streamed, the one it saves", () => {
    const start = { ...turn('sent-live', undefined), status: 'streaming' as const };
    noteTurnPart('sent-live', { type: 'text-start', id: 't' }, 4400);
    const ended = applyParts(start, [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'timing', timing: { ttftMs: 320, reasoningBlockMs: [] } },
      { type: 'finish', wireReason: 'stop', stop: 'end_turn', usage: { outputTokens: 2, generationMs: 1000, promptMs: 90 } },
    ]);
    expect(formatStats(answerStats(ended))).toEqual(['2 tokens', '2.0 tok/s', 'first token 320 ms']);
    const saved = { ...ended, meta: { timing: { ttftMs: 320, reasoningBlockMs: [] } } };
    expect(answerStats(saved)).toEqual(answerStats(ended));
  });

  it('says nothing it does not know', () => {
    expect(formatStats(answerStats(turn('none', undefined)))).toEqual([]);
  });
});
