/**
 * Context audit #9: with the model list empty (its llama-server killed, so nothing is chosen), Continue on a cut answer
 * did nothing at all: sendMessage dropped a message with no model, unsaid. Continue now asks with the answer's own
 * model, as Regenerate does (the request then fails saying why, and Retry works once the server is back); with no
 * model at all, the user is told to choose one.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { sendMessage, useStore } from '../../src/renderer/store/index';
import { CONTINUE_TEXT } from '../../src/shared/turn';
import { fakeApi } from './helpers/fake-api';

let sent: { model: string; text: string }[] = [];

beforeEach(() => {
  sent = [];
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      chat: {
        send: (req: { model: string; text: string }) => {
          sent.push(req);
          return Promise.reject(new Error('Cannot reach llama-server at http://127.0.0.1:8080.'));
        },
      },
    }),
  };
  useStore.setState({ models: [], selectedModel: null, activeId: 'c1', notice: null });
});

describe('Continue with no model chosen', () => {
  it('asks with the answer’s own model, and the failure is said', async () => {
    expect(await sendMessage(CONTINUE_TEXT, [], { model: 'scripted-plain' })).toBe(false);
    expect(sent.map((r) => [r.model, r.text])).toEqual([['scripted-plain', CONTINUE_TEXT]]);
    expect(useStore.getState().notice?.message).toBe('Cannot reach llama-server at http://127.0.0.1:8080.');
  });

  it('says to choose a model when there is none to ask with', async () => {
    expect(await sendMessage(CONTINUE_TEXT)).toBe(false);
    expect(sent).toEqual([]);
    expect(useStore.getState().notice?.message).toBe('Choose a model first.');
  });

  it('uses the chosen model over the answer’s', async () => {
    useStore.setState({ selectedModel: 'qwen3:8b' });
    await sendMessage(CONTINUE_TEXT, [], { model: 'scripted-plain' });
    expect(sent.map((r) => r.model)).toEqual(['qwen3:8b']);
  });
});
