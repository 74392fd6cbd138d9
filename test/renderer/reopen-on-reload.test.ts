/**
 * A reload reopens the conversation that was open (the chat audit's notes: it landed on "New chat", mid-answer
 * too), unless the user chose somewhere else first; a conversation gone since is no error.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConversationView } from '../../src/shared/ipc';
import { newChat, openConversation, useStore } from '../../src/renderer/store/index';
import { keepOpenConversation, reopenAfterReload } from '../../src/renderer/store/reopen-on-reload';
import { holdDrafts, resetDrafts, takeDraft, type Draft } from '../../src/renderer/store/drafts';
import { fakeSessionStorage } from './helpers/session-storage';

const KEY = 'firebrand.open-conversation';
let storage: Map<string, string>;
let opened: string[];
let existing: Set<string>;
/** Holds `conversations.open` answers until released, to put a navigation in between. */
let held: (() => void)[] = [];
let hold = false;

function view(conversationId: string): ConversationView {
  return { conversation: { id: conversationId, title: `Chat ${conversationId}`, model: null, createdAt: 1, updatedAt: 1 } as ConversationView['conversation'], turns: [], siblings: {} };
}

beforeEach(() => {
  storage = fakeSessionStorage();
  opened = [];
  existing = new Set(['c1', 'c2']);
  held = [];
  hold = false;
  (globalThis as { window?: unknown }).window = {
    firebrand: {
      drafts: { save: () => Promise.resolve({ kept: true }), list: () => Promise.resolve([]) },
      conversations: {
        open: ({ conversationId }: { conversationId: string }) => {
          opened.push(conversationId);
          return new Promise((resolve) => (hold ? held.push(() => resolve(view(conversationId))) : resolve(view(conversationId))));
        },
        getSettings: ({ conversationId }: { conversationId: string }) =>
          existing.has(conversationId) ? Promise.resolve({ systemPrompt: '', think: null, tools: true }) : Promise.reject(new Error('That conversation no longer exists.')),
      },
    },
  };
  useStore.setState({ activeId: null, notice: null, models: [], aliases: [], hiddenConversations: [] });
});

describe('a reload', () => {
  it('reopens the conversation that was open, and keeps the one open from then on', async () => {
    storage.set(KEY, 'c1');
    keepOpenConversation();
    await reopenAfterReload();
    expect(useStore.getState().activeId).toBe('c1');
    await openConversation('c2');
    expect(storage.get(KEY)).toBe('c2');
    newChat();
    expect(storage.has(KEY)).toBe(false);
  });

  it('does not reopen it over a new chat or another conversation chosen first', async () => {
    storage.set(KEY, 'c1');
    keepOpenConversation();
    newChat();
    await reopenAfterReload();
    expect(opened).toEqual([]);
    expect(useStore.getState().activeId).toBeNull();
  });

  it('does not reopen it over a message the user began typing in the new chat, and the words stay on screen', async () => {
    storage.set(KEY, 'c1');
    resetDrafts();
    keepOpenConversation();
    // The composer, as it mounts: the new chat's draft (none), then the user types before the reopening.
    let onScreen: Draft = takeDraft(null);
    const release = holdDrafts({ take: () => onScreen, put: (d) => (onScreen = d) });
    onScreen = { text: 'Is anyone there?', attachments: [] };
    await reopenAfterReload();
    release();
    expect(opened).toEqual([]);
    expect(useStore.getState().activeId).toBeNull();
    expect(onScreen.text).toBe('Is anyone there?');
  });

  it('reopens it when the composer holds only the draft it was given', async () => {
    storage.set(KEY, 'c1');
    resetDrafts();
    keepOpenConversation();
    let onScreen: Draft = takeDraft(null);
    const release = holdDrafts({ take: () => onScreen, put: (d) => (onScreen = d) });
    await reopenAfterReload();
    release();
    expect(useStore.getState().activeId).toBe('c1');
  });

  it('lands on a new chat, with no error, when the conversation is gone', async () => {
    storage.set(KEY, 'c1');
    existing.delete('c1');
    keepOpenConversation();
    await reopenAfterReload();
    expect(useStore.getState().activeId).toBeNull();
    expect(useStore.getState().notice).toBeNull();
    expect(storage.has(KEY)).toBe(false);
  });
});

describe('opening a conversation', () => {
  it('is not shown when a new chat was chosen while it was read', async () => {
    hold = true;
    const opening = openConversation('c1');
    await Promise.resolve();
    newChat();
    for (const release of held) release();
    await opening;
    expect(useStore.getState().activeId).toBeNull();
  });
});
