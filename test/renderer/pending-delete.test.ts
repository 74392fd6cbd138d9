/**
 * The audit's files #5: a conversation deleted from the list waits out the undo window hidden, and main deletes it
 * when the window ends. Opened meanwhile (a search hit listed before, a link), it went on being deleted while open,
 * and the next message failed with "That conversation no longer exists." Opening it takes the delete back, as Undo.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView } from '../../src/shared/ipc';
import { openConversation, useStore } from '../../src/renderer/store/index';
import { deleteWithUndo, offeredHits, undoPendingDeletes, UNDO_WINDOW_MS } from '../../src/renderer/store/conversation-actions';
import type { SearchResult } from '../../src/shared/ipc';
import { keepUnsavedChatSettings, resetUnsavedChatSettings, unsavedChatSettings } from '../../src/renderer/store/unsaved-chat-settings';
import { fakeLocalStorage } from './helpers/local-storage';

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
  useStore.setState({ activeId: null, hiddenConversations: [], deletedConversations: [], notice: null, models: [], aliases: [] });
  fakeLocalStorage();
  resetUnsavedChatSettings();
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

  it('is not offered by a search listed during the window, after the window either, once main has deleted it', async () => {
    // A search made as the chat waited out its window: main still had it, so it matched.
    const hit = (conversationId: string): SearchResult => ({ conversationId, turnId: `t-${conversationId}`, title: `Chat ${conversationId}`, snippet: [{ text: 'wombat', match: true }] });
    const found = [hit('kept'), hit('c1')];
    deleteWithUndo('c1');
    expect(offeredHits(found, useStore.getState()).map((r) => r.conversationId)).toEqual(['kept']);
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS + 1);
    expect(deleted).toEqual(['c1']);
    // The list still on screen: the chat is gone, and it is not offered again.
    expect(offeredHits(found, useStore.getState()).map((r) => r.conversationId)).toEqual(['kept']);
  });

  it('is offered again when main could not delete it (it is still there)', async () => {
    const conversations = (window as unknown as { firebrand: { conversations: { delete: unknown } } }).firebrand.conversations;
    conversations.delete = () => Promise.reject(new Error('The disk is full, so this was not saved. Free some space, then try again.'));
    const hit = { conversationId: 'c1', turnId: 't1', title: 'Chat c1', snippet: [{ text: 'wombat', match: true }] };
    deleteWithUndo('c1');
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS + 1);
    expect(useStore.getState().notice?.message).toContain('disk is full');
    expect(offeredHits([hit], useStore.getState()).map((r) => r.conversationId)).toEqual(['c1']);
  });

  // The several-tabs hunt: a message written in the chat in another tab during the window was deleted with it.
  it('sends what it listed, and is offered again with a notice where main kept it for a message written since', async () => {
    const asked: unknown[] = [];
    const conversations = (window as unknown as { firebrand: { conversations: { delete: unknown } } }).firebrand.conversations;
    conversations.delete = (req: unknown) => {
      asked.push(req);
      return Promise.resolve({ deleted: false, writtenSince: true });
    };
    useStore.setState({ conversations: [{ id: 'c1', title: 'Trip plans', updatedAt: 1_700_000_000_123, model: null }] });
    deleteWithUndo('c1');
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS + 1);
    expect(asked).toEqual([{ conversationId: 'c1', keepIfWrittenAfter: 1_700_000_000_123 }]);
    expect(useStore.getState().hiddenConversations).toEqual([]);
    expect(useStore.getState().deletedConversations).toEqual([]);
    expect(useStore.getState().notice?.message).toBe(
      '“Trip plans” was not deleted: a message was written in it in another window or tab after you deleted it. Delete it again if it should go.',
    );
  });

  // Chat settings typed and not saved are kept across reloads (unsaved-chat-settings.ts): a deleted chat's go with it,
  // once it is gone; an Undo within the window finds them still there.
  it("takes its chat settings typed and not saved with it once deleted, and an Undo keeps them", async () => {
    const pirate = { prompt: 'Answer as a pirate.', think: '' as const, tools: true };
    keepUnsavedChatSettings('c1', pirate);
    keepUnsavedChatSettings('c2', pirate);
    deleteWithUndo('c1');
    deleteWithUndo('c2');
    await openConversation('c2');
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS + 1);
    expect(deleted).toEqual(['c1']);
    resetUnsavedChatSettings();
    expect(unsavedChatSettings('c1')).toBeUndefined();
    expect(unsavedChatSettings('c2')).toEqual(pirate);
  });

  // A second delete within the window replaced the toast, and the first chat's Undo was lost while it was still only
  // hidden: now one Undo takes back both, and a delete restarts the window for every chat still waiting.
  it('waits out the window from the last delete, and one Undo takes back every chat still waiting', async () => {
    deleteWithUndo('c1');
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1000);
    deleteWithUndo('c2');
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1000);
    // The first's own 5 s are over; it is not deleted, as the second's are not.
    expect(deleted).toEqual([]);
    expect(undoPendingDeletes()).toEqual(['c1', 'c2']);
    expect(useStore.getState().hiddenConversations).toEqual([]);
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS + 1);
    expect(deleted).toEqual([]);

    // Not taken back, both go for good once the window from the last delete ends.
    deleteWithUndo('c3');
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1000);
    deleteWithUndo('c4');
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1000);
    expect(deleted).toEqual([]);
    await vi.advanceTimersByTimeAsync(1001);
    expect(deleted).toEqual(['c3', 'c4']);
    expect(useStore.getState().hiddenConversations).toEqual([]);
    expect(undoPendingDeletes()).toEqual([]);
  });
});
