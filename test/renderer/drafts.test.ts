/**
 * A draft stays with its conversation: the composer's text and pending files went along to the next conversation
 * opened (a message meant for one chat was sent in another), and a reload lost them (the audit's notes). Main keeps
 * them: closing the window lost them while they lived in the tab's sessionStorage.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView, SavedDraft } from '../../src/shared/ipc';
import type { AttachmentBlock } from '../../src/shared/turn';
import { newChat, openConversation, useStore } from '../../src/renderer/store/index';
import { adoptSavedDrafts, draftEdited, draftSending, flushDraft, holdDrafts, loadSavedDrafts, resetDrafts, SAVE_AFTER_MS, takeDraft, type Draft } from '../../src/renderer/store/drafts';

/** Main's drafts (DraftStore), by conversation ('' a new chat's), and every save asked of it. */
let kept: Map<string, SavedDraft>;
let saves: SavedDraft[];
/** The composer: what it shows. */
let onScreen: Draft;

/** The user edits the composer (Composer.tsx tells the drafts of each change). */
function type(d: Draft): void {
  onScreen = d;
  draftEdited();
}

/** A new page (a reload, or the app started again): this tab's memory gone, main's drafts read back. */
async function startAgain(): Promise<void> {
  resetDrafts();
  useStore.setState({ activeId: null });
  adoptSavedDrafts([...kept.values()]);
  mountComposer();
  await Promise.resolve();
}

const file: AttachmentBlock = { type: 'attachment', id: 'a'.repeat(64), kind: 'text', name: 'notes.txt', mime: 'text/plain', size: 5 };

function view(conversationId: string): ConversationView {
  return { conversation: { id: conversationId, title: `Chat ${conversationId}`, model: null, createdAt: 1, updatedAt: 1 } as ConversationView['conversation'], turns: [], siblings: {} };
}

/** Mounts a composer as Composer.tsx does: its first draft taken for the conversation on screen. */
function mountComposer(): () => void {
  onScreen = takeDraft(useStore.getState().activeId);
  return holdDrafts({ take: () => onScreen, put: (d) => (onScreen = d) });
}

beforeEach(() => {
  kept = new Map();
  saves = [];
  (globalThis as { window?: unknown }).window = {
    firebrand: {
      drafts: {
        save: (d: SavedDraft) => {
          saves.push(d);
          if (d.text === '' && d.attachments.length === 0) kept.delete(d.conversationId ?? '');
          else kept.set(d.conversationId ?? '', d);
          return Promise.resolve({ kept: true });
        },
        list: () => Promise.resolve([...kept.values()]),
      },
      conversations: {
        open: ({ conversationId }: { conversationId: string }) => Promise.resolve(view(conversationId)),
        getSettings: () => Promise.resolve({ systemPrompt: '', think: null, tools: true }),
      },
    },
  };
  useStore.setState({ activeId: null, notice: null, models: [], aliases: [], hiddenConversations: [] });
  resetDrafts();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('drafts', () => {
  it('stay with their conversation as the user moves between them, files too', async () => {
    mountComposer();
    await openConversation('c1');
    onScreen = { text: 'For chat one', attachments: [file] };
    await openConversation('c2');
    expect(onScreen).toEqual({ text: '', attachments: [] });
    onScreen = { text: 'For chat two', attachments: [] };
    newChat();
    expect(onScreen).toEqual({ text: '', attachments: [] });
    onScreen = { text: 'A new question', attachments: [] };
    await openConversation('c1');
    expect(onScreen).toEqual({ text: 'For chat one', attachments: [file] });
    await openConversation('c2');
    expect(onScreen.text).toBe('For chat two');
    newChat();
    expect(onScreen.text).toBe('A new question');
  });

  it('go with the message when a new chat gets its id by sending (not a navigation)', async () => {
    mountComposer();
    onScreen = { text: 'First message', attachments: [] };
    // sendMessage sets the new conversation's id; the composer clears its draft once the send is accepted.
    useStore.setState({ activeId: 'sent' });
    onScreen = { text: '', attachments: [] };
    newChat();
    expect(onScreen.text).toBe('');
    await openConversation('sent');
    expect(onScreen.text).toBe('');
  });

  // Conversations audit D3: the files came back no more (an image pasted from the clipboard was gone, unsaid). And
  // the drafts lived in the tab's sessionStorage: closing the window or quitting lost them.
  it('come back at the next start (a reload, a closed window, a quit), each with its conversation, files too', async () => {
    mountComposer();
    await openConversation('c1');
    type({ text: 'Half a thought', attachments: [file] });
    await openConversation('c2');
    type({ text: '', attachments: [{ ...file, id: 'b'.repeat(64), kind: 'image', name: 'pasted.png', mime: 'image/png' }] });
    newChat();
    type({ text: 'Typed in a new chat', attachments: [] });
    // The page goes away before the typing paused: its hiding saves the draft on screen.
    flushDraft();

    await startAgain();
    expect(onScreen).toEqual({ text: 'Typed in a new chat', attachments: [] });
    await openConversation('c1');
    expect(onScreen).toEqual({ text: 'Half a thought', attachments: [file] });
    await openConversation('c2');
    expect(onScreen.attachments.map((a) => a.name)).toEqual(['pasted.png']);
  });

  it('are saved once the typing pauses, once for a run of keys, and at once when emptied', async () => {
    vi.useFakeTimers();
    mountComposer();
    await openConversation('c1');
    for (const text of ['H', 'He', 'Hel', 'Hello']) type({ text, attachments: [] });
    expect(saves).toEqual([]);
    vi.advanceTimersByTime(SAVE_AFTER_MS);
    expect(saves).toEqual([{ conversationId: 'c1', text: 'Hello', attachments: [] }]);
    // Typed back to what main holds: nothing to save.
    type({ text: 'Hello!', attachments: [] });
    type({ text: 'Hello', attachments: [] });
    vi.advanceTimersByTime(SAVE_AFTER_MS);
    expect(saves).toHaveLength(1);
    type({ text: '', attachments: [] });
    expect(saves.at(-1)).toEqual({ conversationId: 'c1', text: '', attachments: [] });
    expect(kept.size).toBe(0);
  });

  it('whose save failed (the link to main down a moment) are saved again at the next save point', async () => {
    mountComposer();
    await openConversation('c1');
    const api = (window as unknown as { firebrand: { drafts: { save: (d: SavedDraft) => Promise<unknown> } } }).firebrand.drafts;
    const working = api.save;
    api.save = () => Promise.reject(new Error('The link to Firebrand was lost.'));
    type({ text: '', attachments: [file] });
    flushDraft();
    await Promise.resolve();
    await Promise.resolve();
    api.save = working;
    // The page is hidden: nothing was typed since, and the draft is asked for again.
    flushDraft();
    expect(kept.get('c1')).toEqual({ conversationId: 'c1', text: '', attachments: [file] });
  });

  it('save nothing of a message being sent: it would come back into the box at the next start', async () => {
    vi.useFakeTimers();
    mountComposer();
    type({ text: 'Sent at once', attachments: [] });
    draftSending();
    vi.advanceTimersByTime(SAVE_AFTER_MS * 2);
    expect(saves).toEqual([]);
  });

  it('coming from main after the box is on screen, are put there, with words typed meanwhile after them', async () => {
    kept.set('', { conversationId: null, text: 'Kept from yesterday', attachments: [file] });
    kept.set('c1', { conversationId: 'c1', text: 'For chat one', attachments: [] });
    mountComposer();
    onScreen = { text: 'quick', attachments: [] };
    adoptSavedDrafts([...kept.values()]);
    expect(onScreen).toEqual({ text: 'Kept from yesterday\n\nquick', attachments: [file] });
    await openConversation('c1');
    expect(onScreen.text).toBe('For chat one');
    // The joined draft was kept for the new chat as it was left.
    expect(kept.get('')?.text).toBe('Kept from yesterday\n\nquick');
  });

  // A run of the e2e: the box rendered (its draft taken) and main's drafts came before it held its draft, so the
  // new chat's went into the list, out of sight, and the box stayed empty.
  it("coming between the box's first render and its holding the draft, are put there", () => {
    onScreen = takeDraft(null);
    adoptSavedDrafts([{ conversationId: null, text: 'Came late', attachments: [file] }]);
    holdDrafts({ take: () => onScreen, put: (d) => (onScreen = d) });
    expect(onScreen).toEqual({ text: 'Came late', attachments: [file] });
  });

  it('keep nothing for a conversation left with an empty box', async () => {
    mountComposer();
    await openConversation('c1');
    type({ text: 'Gone soon', attachments: [] });
    await openConversation('c2');
    expect(kept.get('c1')?.text).toBe('Gone soon');
    await openConversation('c1');
    type({ text: '', attachments: [] });
    flushDraft();
    expect(kept.size).toBe(0);
    await startAgain();
    await openConversation('c1');
    expect(onScreen.text).toBe('');
  });

  describe('typed while the chat clicked is still being read', () => {
    /** Opens `id` with its read held until the returned function is called (a busy machine, a long chat). */
    function openHeld(id: string): { opened: Promise<void>; arrive: () => void } {
      let arrive = () => {};
      const read = new Promise<ConversationView>((resolve) => (arrive = () => resolve(view(id))));
      const api = (window as unknown as { firebrand: { conversations: { open: unknown } } }).firebrand.conversations;
      const open = api.open;
      api.open = () => read;
      const opened = openConversation(id);
      api.open = open;
      return { opened, arrive };
    }

    it('stay on screen with that chat, and the chat left keeps no draft', async () => {
      mountComposer();
      await openConversation('c1');
      const { opened, arrive } = openHeld('c2');
      onScreen = { text: 'Meant for chat two', attachments: [file] };
      arrive();
      await opened;
      expect(useStore.getState().activeId).toBe('c2');
      expect(onScreen).toEqual({ text: 'Meant for chat two', attachments: [file] });
      await openConversation('c1');
      expect(onScreen).toEqual({ text: '', attachments: [] });
      await openConversation('c2');
      expect(onScreen).toEqual({ text: 'Meant for chat two', attachments: [file] });
    });

    it('come after the draft that chat kept', async () => {
      mountComposer();
      await openConversation('c2');
      onScreen = { text: 'Kept in two', attachments: [] };
      await openConversation('c1');
      const { opened, arrive } = openHeld('c2');
      onScreen = { text: 'and more', attachments: [file] };
      arrive();
      await opened;
      expect(onScreen).toEqual({ text: 'Kept in two\n\nand more', attachments: [file] });
    });

    it('on top of a draft stay with it, with the chat left, as before', async () => {
      mountComposer();
      await openConversation('c1');
      onScreen = { text: 'Draft of one', attachments: [] };
      const { opened, arrive } = openHeld('c2');
      onScreen = { text: 'Draft of one, longer', attachments: [] };
      arrive();
      await opened;
      expect(onScreen).toEqual({ text: '', attachments: [] });
      await openConversation('c1');
      expect(onScreen.text).toBe('Draft of one, longer');
    });

    it('and sent in the chat on screen, are not brought back', async () => {
      mountComposer();
      await openConversation('c1');
      const { opened, arrive } = openHeld('c2');
      onScreen = { text: 'Sent to one', attachments: [] };
      // The send was accepted: the composer cleared its draft.
      onScreen = { text: '', attachments: [] };
      arrive();
      await opened;
      expect(onScreen.text).toBe('');
      await openConversation('c1');
      expect(onScreen.text).toBe('');
    });
  });

  // Serve mode restarted with a new token refuses the page: what was typed there never reached main, and was lost as
  // the new address opened (the same tab: the same origin's storage).
  describe('main never kept (the page refused after serve mode restarted, or its link down)', () => {
    let stored: Map<string, string>;
    const api = () => (window as unknown as { firebrand: { drafts: { save: (d: SavedDraft) => Promise<unknown> } } }).firebrand.drafts;
    beforeEach(() => {
      stored = new Map();
      (globalThis as { localStorage?: unknown }).localStorage = {
        getItem: (k: string) => stored.get(k) ?? null,
        setItem: (k: string, v: string) => void stored.set(k, v),
        removeItem: (k: string) => void stored.delete(k),
      };
    });
    afterEach(() => {
      delete (globalThis as { localStorage?: unknown }).localStorage;
    });
    /** The page refused: every save fails. */
    async function typedWhileRefused(d: Draft): Promise<void> {
      const working = api().save;
      api().save = () => Promise.reject(new Error('This page’s token is no longer accepted (serve mode was restarted).'));
      type(d);
      flushDraft();
      await Promise.resolve();
      await Promise.resolve();
      api().save = working;
    }
    /** The new address opened in the same tab. */
    async function openedAgain(): Promise<void> {
      resetDrafts();
      useStore.setState({ activeId: null });
      mountComposer();
      loadSavedDrafts();
      await vi.waitFor(() => expect(stored.size).toBe(0));
    }

    it('come back at the next start in place of the older one main kept, and main keeps them then', async () => {
      kept.set('c1', { conversationId: 'c1', text: 'Saved before', attachments: [] });
      loadSavedDrafts();
      mountComposer();
      await openConversation('c1');
      await vi.waitFor(() => expect(onScreen.text).toBe('Saved before'));
      await typedWhileRefused({ text: 'Saved before, and typed after', attachments: [file] });

      await openedAgain();
      await openConversation('c1');
      expect(onScreen).toEqual({ text: 'Saved before, and typed after', attachments: [file] });
      expect(kept.get('c1')).toEqual({ conversationId: 'c1', text: 'Saved before, and typed after', attachments: [file] });
    });

    it('sent since, are not brought back', async () => {
      mountComposer();
      await typedWhileRefused({ text: 'Sent once the link was back', attachments: [] });
      draftSending();
      useStore.setState({ activeId: 'sent' });
      onScreen = { text: '', attachments: [] };

      await openedAgain();
      expect(onScreen.text).toBe('');
      expect(kept.size).toBe(0);
    });
  });
});
