/**
 * Round 6: an answer Firebrand was killed in while it held a complete tool call reloads "Interrupted", its call
 * answered "Not run" by a tool turn below it, and had no Continue (that tool turn was the branch's last turn),
 * though its text could be continued as well as any other interrupted answer's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CONTINUE_TEXT } from '../../src/shared/turn';
import { shootAtBothWidths } from './helpers/screenshots';
import { startSeededUi } from './helpers/seeded-ui';
import { ASSISTANT, waitIdle } from './helpers/ui-session';

let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('an answer cut while it held a whole tool call', () => {
  it('reloads interrupted with its call not run, and can be continued', async () => {
    // As Firebrand left it when killed: the answer still streaming, its call written whole (the tools run only
    // once the stream ends). The start settles it.
    const ui = await startSeededUi((store) => {
      store.createConversation('c', 'Tram fares', 'llama3.2:3b', 1);
      store.appendTurn({ id: 'u', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'What does a tram ticket cost in Lisbon?' }], meta: {}, status: 'done', createdAt: 2 }, 2);
      const call = { type: 'tool_call' as const, id: 'k1', name: 'fetch_url', state: 'complete' as const, argumentsRaw: '{"url":"https://www.carris.pt"}', arguments: { url: 'https://www.carris.pt' } };
      store.appendTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', blocks: [{ type: 'text', text: 'A single fare on board is about three euros; let me check the current price.' }, call], meta: {}, status: 'streaming', model: 'llama3.2:3b', createdAt: 3 }, 3);
    }, ['It is 3.10 euros', ' on board.']);
    cleanup = ui.close;
    const { page } = ui;
    await page.locator('[data-testid="conversation-item"][title="Tram fares"]').click();
    const cut = page.locator(ASSISTANT).first();
    await expect.poll(() => cut.getAttribute('data-status')).toBe('interrupted');
    await cut.getByText(/Not run/).first().waitFor();
    await shootAtBothWidths(page, 'interrupted-call-continue', '[data-testid="answer-continue"]');
    await cut.getByTestId('answer-continue').click();
    // In the chat: the screen reader's announcer says the finished answer too.
    await page.getByTestId('chat').getByText('It is 3.10 euros on board.').waitFor();
    await waitIdle(page);
    await expect.poll(() => page.getByText(CONTINUE_TEXT).count()).toBe(1);
    expect(await page.getByTestId('answer-continue').count()).toBe(0);
  });
});
