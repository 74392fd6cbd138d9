/**
 * Round 9 left: an alias's context window could be saved below what the open chat through it already held (1K
 * against 1.9K). The Models screen said nothing; the meter behind it showed "1.9K / 1K", and the composer refused
 * the next message (its line under the meter says the alias sets the window). Now the alias editor says so on save;
 * nothing written or received is lost, and raising the window lets the kept draft go.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AliasInput } from '../../src/shared/models';
import { shootAtBothWidths } from './helpers/screenshots';
import { answerRequests, ASSISTANT, chatRoutes, ollamaLines, pickModel, send, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const HELPER: AliasInput = { name: 'Helper', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: 4096 };
/** About 1.9K tokens by the estimate. */
const LONG = `Summarise this. ${'The quick brown fox jumps over the lazy dog. '.repeat(170)}`;

describe("an alias's context window saved below what the open chat holds", () => {
  it('says so where it is saved and where the next message is refused, and loses nothing', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'A fox jumps.' }])));
    const { page, replay } = s;
    await page.evaluate((a) => window.firebrand.aliases.create(a), HELPER);
    await page.reload();
    await pickModel(page, 'Helper', 'alias');
    await send(page, LONG);
    await waitIdle(page);

    await page.getByTestId('models-open').click();
    const item = page.getByTestId('alias-item').filter({ hasText: 'Helper' });
    await item.getByTestId('alias-edit').click();
    await page.getByTestId('alias-context').fill('1024');
    await page.getByTestId('alias-save').click();
    const note = page.getByTestId('alias-window-note');
    await expect.poll(() => note.textContent().catch(() => '')).toMatch(/^The open chat already holds about 1\.\dK tokens through Helper, more than its 1K-token window: nothing in it is lost, but its next message cannot be sent until you make room there \(Make room… under the message box\) or give Helper a larger window\.$/);
    await shootAtBothWidths(page, 'alias-window-below-chat', '[data-testid="alias-editor"]');
    await page.getByTestId('models-close').click();

    await page.getByTestId('composer-input').fill('And the dog?');
    // The short message would fit: the chat is what fills the window, and the reason says where room is made, with the
    // ways Make room… offers (it said "Make room, or shorten the message.", which could not make it fit).
    await expect
      .poll(() => page.getByTestId('composer-reason').textContent())
      .toMatch(/^Too long for Helper: about 1\.\dK tokens, its window holds 1K\. Your message would fit on its own: the chat so far fills the window\. Make room… offers to continue in a new chat\.$/);
    await page.getByTestId('context-make-room').click();
    const choices = page.getByTestId('context-room-panel').getByTestId('context-choices');
    await choices.waitFor();
    // What it offers is what the reason said: one message and its answer have no older turns to summarize.
    expect(await choices.getByTestId('context-new-chat').isVisible()).toBe(true);
    expect(await choices.getByTestId('context-summarize').count()).toBe(0);
    await shootAtBothWidths(page, 'alias-window-below-chat-make-room', '[data-testid="context-room-panel"]');
    await page.getByTestId('context-make-room').click();
    // Where the window comes from, and where to change it.
    await expect.poll(() => page.getByTestId('context-larger-none').textContent()).toBe('The alias sets this window (1,024 tokens); change it in Models.');
    expect(await page.getByTestId('composer-send').isDisabled()).toBe(true);
    await shootAtBothWidths(page, 'alias-window-below-chat-composer');
    // Nothing lost: the draft, the question and its answer are all there.
    expect(await page.getByTestId('composer-input').inputValue()).toBe('And the dog?');
    expect(await page.locator(USER).count()).toBe(1);
    expect(await page.locator(ASSISTANT).innerText()).toContain('A fox jumps.');

    // A larger window again: the kept draft goes, through the alias's window.
    await page.getByTestId('models-open').click();
    await item.getByTestId('alias-edit').click();
    await page.getByTestId('alias-context').fill('4096');
    await page.getByTestId('alias-save').click();
    await expect.poll(() => item.textContent()).toContain('4,096 tokens');
    expect(await note.count()).toBe(0);
    await page.getByTestId('models-close').click();
    await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(false);
    await page.getByTestId('composer-send').click();
    await expect.poll(() => page.locator(ASSISTANT).count()).toBe(2);
    // The answer's turn shows as main starts it, before its request reaches the server: waited for, not assumed.
    await expect.poll(() => answerRequests(replay).length).toBe(2);
    const last = answerRequests(replay).at(-1) as { messages: { content: string }[]; options?: { num_ctx?: number } } | undefined;
    expect(last?.messages.at(-1)?.content).toBe('And the dog?');
    expect(last?.options?.num_ctx).toBe(4096);
  });
});
