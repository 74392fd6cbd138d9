/**
 * The meter's window across a read again (after each answer, a Stop included): the window shown stays until main
 * says another. A read that failed emptied it, and the meter said "29K / … reading the window…" for a window that
 * had not changed, until the next read.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { refreshContextChoice, selectModel, useStore } from '../../src/renderer/store/index';
import type { ContextWindowChoice } from '../../src/shared/models';
import { fakeApi } from './helpers/fake-api';

const WINDOW: ContextWindowChoice = { contextWindow: 8192, source: 'recommended', reason: null };
let answer: (model: string) => Promise<ContextWindowChoice>;

beforeEach(() => {
  answer = () => Promise.resolve(WINDOW);
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({ models: { contextWindow: ({ model }: { model: string }) => answer(model) } }),
  };
  useStore.setState({ activeId: null, selectedModel: null, settings: null, contextChoice: null });
});

describe('the window choice read again', () => {
  it('keeps the window it showed for the model when the read again fails', async () => {
    selectModel('llama3.2:3b');
    await expect.poll(() => useStore.getState().contextChoice).toEqual(WINDOW);
    answer = () => Promise.reject(new Error('Firebrand is busy.'));
    await refreshContextChoice();
    expect(useStore.getState().contextChoice).toEqual(WINDOW);
  });

  it("does not show one model's window as another's when the other's read fails", async () => {
    selectModel('llama3.2:3b');
    await expect.poll(() => useStore.getState().contextChoice).toEqual(WINDOW);
    answer = () => Promise.reject(new Error('Firebrand is busy.'));
    selectModel('qwen3:8b');
    await expect.poll(() => useStore.getState().contextChoice).toBeNull();
  });
});
