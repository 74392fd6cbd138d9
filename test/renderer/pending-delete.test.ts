/**
 * The audit's files #5: a conversation deleted from the list waits out the undo window hidden, and main deletes it
 * when the window ends. Opened meanwhile (a search hit listed before, a link), it went on being deleted while open,
 * and the next message failed with "That conversation no longer exists." Opening it takes the delete back, as Undo.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView } from '../../src/shared/ipc';
import { openConversation, useStore } from '../../src/renderer/store/index';
import { deleteWithUndo, UNDO_WINDOW_MS } from '../../src/renderer/store/conversation-actions';

let deleted: string[] = [];

function view(conversationId: string): ConversationView {
  return { conversation: { id: conversationId, title: `Chat ${conversationId}`, model: null, createdAt: 1, updatedAt: 1 } as ConversationView['conversation'], turns: [], siblings: {} };
}

beforeEach(() => {
  vi.useFakeTimers();
  deleted = [];
  (globalThis as { window?: unknown }).window = {
    firebrand: {
      conversations: {
        open: ({ conversationId }: { conversationId: string }) => Promise.resolve(view(conversationId)),
        getSettings: () => Promise.resolve({ systemPrompt: '', think: null, tools: true }),
        delete: ({ conversationId }: { conversationId: string }) => {
          deleted.push(conversationId);
          return Promise.resolve({});
        },
        list: () => Promise.resolve([]),
      },
    },
  };
  useStore.setState({ activeId: null, hiddenConversations: [], notice: null, models: [], aliases: [] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a conversation waiting out its undo window', () => {
  it('is kept when it is opened: the delete is taken back, as Undo does', async () => {
    deleteWithUndo('c1');
    deleteWithUndo('c2');
    expect(useStore.getState().hiddenConversations).toEqual(['c1', 'c2']);
    await openConversation('c1');
    expect(useStore.getState().activeId).toBe('c1');
    expect(useStore.getState().hiddenConversations).toEqual(['c2']);
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS + 1);
    // The one not opened is deleted for good; the open one is not, and no failure is shown.
    expect(deleted).toEqual(['c2']);
    expect(useStore.getState().hiddenConversations).toEqual([]);
    expect(useStore.getState().activeId).toBe('c1');
    expect(useStore.getState().notice).toBeNull();
  });
});
