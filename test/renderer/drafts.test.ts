/**
 * A draft stays with its conversation: the composer's text and pending files went along to the next conversation
 * opened (a message meant for one chat was sent in another), and a reload lost them (the audit's notes).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConversationView } from '../../src/shared/ipc';
import type { AttachmentBlock } from '../../src/shared/turn';
import { newChat, openConversation, useStore } from '../../src/renderer/store/index';
import { holdDrafts, persistDrafts, resetDrafts, takeDraft, type Draft } from '../../src/renderer/store/drafts';
import { fakeSessionStorage } from './helpers/session-storage';

let storage: Map<string, string>;
/** The composer: what it shows. */
let onScreen: Draft;

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
  storage = fakeSessionStorage();
  (globalThis as { window?: unknown }).window = {
    firebrand: {
      conversations: {
        open: ({ conversationId }: { conversationId: string }) => Promise.resolve(view(conversationId)),
        getSettings: () => Promise.resolve({ systemPrompt: '', think: null, tools: true }),
      },
    },
  };
  useStore.setState({ activeId: null, notice: null, models: [], aliases: [], hiddenConversations: [] });
  resetDrafts();
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

  // Conversations audit D3: the files came back no more (an image pasted from the clipboard was gone, unsaid).
  it('come back after a reload, each with its conversation, files too', async () => {
    mountComposer();
    await openConversation('c1');
    onScreen = { text: 'Half a thought', attachments: [file] };
    await openConversation('c2');
    onScreen = { text: '', attachments: [{ ...file, id: 'b'.repeat(64), kind: 'image', name: 'pasted.png', mime: 'image/png' }] };
    newChat();
    onScreen = { text: 'Typed in a new chat', attachments: [] };
    persistDrafts();

    // The reload: a new page, the same tab's storage.
    resetDrafts();
    useStore.setState({ activeId: null });
    mountComposer();
    expect(onScreen).toEqual({ text: 'Typed in a new chat', attachments: [] });
    await openConversation('c1');
    expect(onScreen).toEqual({ text: 'Half a thought', attachments: [file] });
    await openConversation('c2');
    expect(onScreen.attachments.map((a) => a.name)).toEqual(['pasted.png']);
  });

  it('read after a reload as stored before files were kept (texts), and drop what is not a draft', async () => {
    storage.set('firebrand.drafts', JSON.stringify({ '': 'An old text', c1: { text: 'x', attachments: [{ type: 'attachment', id: 5 }, file] }, c2: 42 }));
    mountComposer();
    expect(onScreen).toEqual({ text: 'An old text', attachments: [] });
    await openConversation('c1');
    expect(onScreen).toEqual({ text: 'x', attachments: [file] });
    await openConversation('c2');
    expect(onScreen).toEqual({ text: '', attachments: [] });
  });

  it('keep nothing for a conversation left with an empty box', async () => {
    mountComposer();
    await openConversation('c1');
    onScreen = { text: 'Gone soon', attachments: [] };
    await openConversation('c2');
    await openConversation('c1');
    onScreen = { text: '', attachments: [] };
    persistDrafts();
    expect(storage.has('firebrand.drafts')).toBe(false);
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
});
