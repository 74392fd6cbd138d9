/**
 * A message that would fit on its own, after a chat that fills most of the window: the reason under the message box
 * first said "Make room in the chat (Make room…)." and, once main's plan for making room came, "Make room… offers to
 * continue in a new chat." Its live region changed twice, and a screen reader read the long reason twice. The first
 * words are still shown, but only the final ones are announced.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AliasInput } from '../../src/shared/models';
import { chatRoutes, ollamaLines, pickModel, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const HELPER: AliasInput = { name: 'Helper', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: 2560 };
/** About 1.9K tokens by the estimate: the chat fits the 2.5K window alone. */
const LONG = `Summarise this. ${'The quick brown fox jumps over the lazy dog. '.repeat(170)}`;
/** About 1K tokens: fits the window alone, not after the chat. */
const NEXT = `Tell me more. ${'The dog sleeps in the sun all day. '.repeat(110)}`;

describe('the reason a message is too long, in a screen reader', () => {
  it('is announced once, with the ways Make room… offers', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'A fox jumps.' }])));
    const { page } = s;
    await page.evaluate((a) => window.firebrand.aliases.create(a), HELPER);
    await page.reload();
    await pickModel(page, 'Helper', 'alias');
    await send(page, LONG);
    await waitIdle(page);
    expect(await page.getByTestId('composer-reason').count()).toBe(0);

    // What a screen reader hears of the reason: its live region's text without what is aria-hidden, at each change.
    await page.evaluate(() => {
      const heard: string[] = [];
      (window as unknown as { heard: string[] }).heard = heard;
      const listen = () => {
        const region = document.querySelector('[data-testid="composer-reason"][role="status"]');
        if (!region) return;
        const said = region.cloneNode(true) as HTMLElement;
        for (const hidden of said.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
        const text = said.textContent ?? '';
        if (text !== '' && text !== heard.at(-1)) heard.push(text);
      };
      new MutationObserver(listen).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await page.getByTestId('composer-input').fill(NEXT);
    await expect
      .poll(() => page.getByTestId('composer-reason').textContent())
      .toMatch(/^Too long for Helper: about .* tokens, its window holds .*\. Your message would fit on its own: the chat so far fills the window\. Make room… offers to continue in a new chat\.$/);
    const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard);
    expect(heard.length).toBeGreaterThan(0);
    for (const said of heard) expect(said).toMatch(/Make room… offers to continue in a new chat\.$/);
  });
});
