/**
 * Context audit: auto-compact in a tiny window where the tools' definitions alone fill most of it. No summary can
 * bring the request under the threshold, so every message was summarized again before its answer (a summary request
 * per message, a new card each time). Now nothing is summarized there: one card says what takes the room and what to
 * do, and every message is still sent and answered.
 */
import { describe, expect, it } from 'vitest';
import { summaryFailedMeta } from '../../../src/shared/context-edits';
import { turnText } from '../../../src/shared/turn';
import { settle } from '../integration/helpers';
import { answerBodies, MODEL, scenarioServer, summaryBodies } from './helpers';

const room = scenarioServer();

/**
 * ~65 tokens each by the estimate: with the tools' ~260, the second is over 75% of a 512-token window (where a
 * summary of ~60 tokens leaves the request over it still), and all three fit the window as they are.
 */
const MESSAGES = ['First', 'Second', 'Third'].map((n) => `${n} question about the weather on the hills. ${'The clouds roll over the river. '.repeat(6)}`);

describe('auto-compact where the tool definitions fill the window', () => {
  it('does not summarize before every message: one card names the tool definitions and the ways on, and each message is answered', async () => {
    const { services } = room.start();
    await services.handlers['context:set-auto-compact']({ kind: 'connection', id: 'ollama', threshold: 0.75 });
    await services.handlers['models:set-context']({ model: MODEL, contextWindow: 512, source: 'user' });
    const fixed = await services.handlers['context:measure']({ conversationId: null, model: MODEL });
    expect(fixed.parts?.tools).toBeGreaterThan(512 * 0.75 - 128 - 1);

    let conversationId: string | null = null;
    for (const text of MESSAGES) {
      const sent = await services.handlers['chat:send']({ conversationId, text, model: MODEL });
      conversationId = sent.conversationId;
      const turns = await settle(services, conversationId);
      // Nothing the user wrote is lost: the message went, and was answered.
      expect(turns.at(-1)).toMatchObject({ role: 'assistant', status: 'done' });
    }
    const turns = await settle(services, conversationId!);
    expect(summaryBodies(room.replay)).toHaveLength(0);
    expect(answerBodies(room.replay)).toHaveLength(MESSAGES.length);
    expect(turns.filter((t) => t.source === 'compaction')).toHaveLength(0);
    const cards = turns.filter((t) => t.role === 'system');
    expect(cards).toHaveLength(1);
    expect(summaryFailedMeta(cards[0]!.meta)).toMatchObject({ why: 'no-room', auto: true, room: { window: 512, tools: fixed.parts!.tools } });
    const text = turnText(cards[0]!);
    expect(text).toContain(`tool definitions (about ${fixed.parts!.tools} tokens)`);
    expect(text).toContain('512-token context window');
    expect(text).toMatch(/turn off some of the tools.*or choose a larger context window/i);
  });
});
