/**
 * Two stores of the page that only grew for its whole life (leftovers audit, found and left):
 * - turns saved for other chats while this tab was sending (another tab answering meanwhile) were kept in
 *   streamed-turns.ts's `savedAhead` for good, though those chats are read from main when they open;
 * - attachment costs, one per attachment, pages, model and connection ever shown, copied whole on every answer.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { SendResult } from '../../src/shared/ipc';
import type { AttachmentBlock, Turn } from '../../src/shared/turn';
import { sendMessage, useStore } from '../../src/renderer/store/index';
import { connectStreamedTurns, savedEarly } from '../../src/renderer/store/streamed-turns';
import { COSTS_KEPT, currentKey, requestCost, useAttachmentCosts } from '../../src/renderer/store/attachment-costs';
import { fakeApi } from './helpers/fake-api';

function turn(id: string, conversationId: string, role: Turn['role'], parentId: string | null): Turn {
  return { id, conversationId, parentId, role, blocks: [], meta: {}, status: 'done', createdAt: 1 } as Turn;
}

let saved: ((p: { turn: Turn }) => void) | undefined;

beforeEach(() => {
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      chat: {
        onTurnSaved: (listener: (p: { turn: Turn }) => void) => {
          saved = listener;
          return () => undefined;
        },
        send: () => {
          // While this tab's message goes out, another tab's answer in another chat is saved.
          saved!({ turn: turn('other-answer', 'other-chat', 'assistant', 'other-question') });
          const res: SendResult = { conversationId: 'c1', userTurn: turn('u1', 'c1', 'user', null), assistantTurn: { ...turn('a1', 'c1', 'assistant', 'u1'), status: 'streaming' } };
          return Promise.resolve(res);
        },
      },
      attachments: { inspect: () => Promise.resolve({ tokens: 7, tokensSource: 'estimate', pageCount: null, pageChars: null, textChars: 28 }) },
    }),
  };
  useStore.setState({ activeId: 'c1', turns: [], selectedModel: 'qwen3:8b', sending: false, settings: null });
});

describe('stores the page keeps', () => {
  it('lets go of turns saved for other chats while this tab was sending once the send is over', async () => {
    connectStreamedTurns((window as unknown as { firebrand: Parameters<typeof connectStreamedTurns>[0] }).firebrand);
    expect(await sendMessage('Hello')).toBe(true);
    expect(useStore.getState().turns.map((t) => t.id)).toEqual(['u1', 'a1']);
    expect(savedEarly('other-answer')).toBeUndefined();
  });

  it('keeps at most COSTS_KEPT attachment costs, and those still asked for', async () => {
    const block = (n: number): AttachmentBlock => ({ type: 'attachment', id: `doc-${n}`, kind: 'document', name: `${n}.pdf`, mime: 'application/pdf', size: 10 });
    const shown = block(0);
    requestCost(shown);
    for (let n = 1; n <= COSTS_KEPT + 50; n++) {
      requestCost(block(n));
      // The open chat asks again for the cost it shows (every change of its turns): that one stays.
      if (n % 100 === 0) requestCost(shown);
    }
    await expect.poll(() => Object.values(useAttachmentCosts.getState().costs).every((c) => c.status === 'done')).toBe(true);
    const costs = useAttachmentCosts.getState().costs;
    expect(Object.keys(costs).length).toBeLessThanOrEqual(COSTS_KEPT);
    expect(costs[currentKey(shown)!]).toMatchObject({ status: 'done' });
    expect(costs[currentKey(block(COSTS_KEPT + 50))!]).toMatchObject({ status: 'done' });
    expect(costs[currentKey(block(1))!]).toBeUndefined();
  });
});
