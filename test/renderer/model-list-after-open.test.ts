/**
 * A chat opened before the model list came (a click on a slow server's start) said nothing of the model it was
 * answered with: the check ran once, at the open, and only with the list here. Now it runs again as the list comes,
 * once, for the chat open then: the model is brought back, or the user is told it is not offered now.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConversationView, ModelSummary } from '../../src/shared/ipc';
import type { Turn } from '../../src/shared/turn';
import { newChat, openConversation, useStore } from '../../src/renderer/store/index';
import { showModels } from '../../src/renderer/store/model-choice';
import { fakeApi } from './helpers/fake-api';

const GONE = 'This chat was answered by tiny:1b, which is not offered now; your next message goes to llama3.2.';

function model(name: string): ModelSummary {
  return { name, sizeBytes: null, family: null, parameterSize: null, quantization: null };
}

function answer(conversationId: string, modelName: string): Turn {
  return { id: `${conversationId}-a`, conversationId, parentId: null, role: 'assistant', blocks: [], meta: {}, status: 'done', model: modelName, createdAt: 1 };
}

function view(conversationId: string): ConversationView {
  const answeredBy = conversationId === 'c-qwen' ? 'qwen3:8b' : 'tiny:1b';
  return { conversation: { id: conversationId, title: `Chat ${conversationId}`, model: null, createdAt: 1, updatedAt: 1 } as ConversationView['conversation'], turns: [answer(conversationId, answeredBy)], siblings: {} };
}

/** The model list arrives, as at start (main's list, then the choice among it). */
const listArrives = (...names: string[]) => showModels(Promise.resolve([names.map(model), []]));
/** The queued check after the list's own update. */
const settled = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      drafts: { save: () => Promise.resolve({ kept: true }), list: () => Promise.resolve([]) },
      conversations: {
        open: ({ conversationId }: { conversationId: string }) => Promise.resolve(view(conversationId)),
        getSettings: () => Promise.resolve({ systemPrompt: '', think: null, tools: true }),
      },
      models: { contextWindow: () => Promise.reject(new Error('not asked here')) },
    }),
  };
  useStore.setState({ activeId: null, notice: null, models: [], aliases: [], selectedModel: null, settings: null, modelsConnection: undefined, hiddenConversations: [], openFailed: [] });
});

describe('a chat opened before the model list came', () => {
  it('says, once the list comes, that the model it was answered with is not offered now', async () => {
    await openConversation('c-tiny');
    expect(useStore.getState().notice).toBeNull();
    await listArrives('llama3.2');
    await settled();
    expect(useStore.getState().notice?.message).toBe(GONE);
  });

  it('says it once: not again after the user dismissed it, as a later list comes', async () => {
    await openConversation('c-tiny');
    await listArrives('llama3.2');
    await settled();
    useStore.setState({ notice: null }); // Dismissed.
    await listArrives('llama3.2', 'phi3');
    await settled();
    expect(useStore.getState().notice).toBeNull();
  });

  it('brings back the model it was answered with, where the list offers it', async () => {
    await openConversation('c-qwen');
    await listArrives('llama3.2', 'qwen3:8b');
    await settled();
    expect(useStore.getState().selectedModel).toBe('qwen3:8b');
    expect(useStore.getState().notice).toBeNull();
  });

  it('says nothing of it once another chat or a new one is open', async () => {
    await openConversation('c-tiny');
    newChat();
    await listArrives('llama3.2');
    await settled();
    expect(useStore.getState().notice).toBeNull();
  });

  it('does not put the notice over another one up meanwhile', async () => {
    await openConversation('c-tiny');
    useStore.setState({ notice: { message: 'Cannot reach Ollama.', action: { kind: 'info' } } });
    await listArrives('llama3.2');
    await settled();
    expect(useStore.getState().notice?.message).toBe('Cannot reach Ollama.');
  });
});

describe('a chat opened with the model list here', () => {
  it('says so at once, as before', async () => {
    await listArrives('llama3.2');
    await openConversation('c-tiny');
    expect(useStore.getState().notice?.message).toBe(GONE);
  });
});
