/**
 * Make room from the edit form (issue 21's choices, for edit-and-resend), through serve mode + Chromium + the
 * stand-in Ollama with a 4,096-token window: a sent message edited into one the window does not hold. The form
 * said why and waited, with no way on; now it offers Make room, planned for the chat up to the edited message with
 * the edit (the turns after it are not sent), and a choice sends the edit once it made room. The edit's text stays
 * through a cancelled choice. Screenshots of the form with the offer at 1280 and 390 px.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { LAST, MODEL, NOTES, outOfRoomRoutes as routes, SUMMARY_PROMPT_START, WINDOW } from '../support/out-of-room-scenario';
import type { ReplayServer } from '../replay-server/replay-server';
import { pickModel, startUi, stopUi, USER, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

type Body = { messages: { role: string; content: string }[] };
const answers = (replay: ReplayServer) =>
  replay.requests
    .filter((r) => r.path === '/api/chat')
    .map((r) => JSON.parse(r.body) as Body)
    .filter((b) => !b.messages.some((m) => m.content.startsWith(SUMMARY_PROMPT_START) || m.content.startsWith('Write a title')));

/** The third note edited into a longer one: with the two exchanges before it, over the window. */
const EDITED = `${LAST}\n\n${NOTES[2]}`;

/** Waits until no turn streams and the tip of the branch is `selector` (scrolled to the bottom of the list). */
async function waitTip(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const scroller = document.querySelector('[data-testid="chat"] [data-virtuoso-scroller]');
    scroller?.scrollTo({ top: scroller.scrollHeight });
    const turns = [...document.querySelectorAll('[data-testid="turn"]')];
    return turns.length > 0 && !turns.some((t) => t.getAttribute('data-status') === 'streaming') && turns.at(-1)!.matches(sel);
  }, selector);
}

describe('make room from the edit form', () => {
  it('an edit over the window offers Make room for the chat up to it; leaving the older turns out sends the edit alone', async () => {
    s = await startUi(routes());
    const { page, replay } = s;
    await page.evaluate(async ([model, w]) => {
      const api = (globalThis as unknown as { firebrand: { models: { setContext(r: unknown): Promise<unknown> } } }).firebrand;
      await api.models.setContext({ model, contextWindow: w, source: 'user' });
    }, [MODEL, WINDOW] as const);
    await pickModel(page, MODEL);
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-window')).toBe(String(WINDOW));
    for (const note of NOTES) {
      await page.getByTestId('composer-input').fill(note);
      await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(false);
      await page.getByTestId('composer-send').click();
      await page.waitForFunction(() => (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement).value === '');
      await waitTip(page, '[data-role="assistant"][data-status="done"]');
    }
    const sent = answers(replay).length;

    await page.locator(USER).last().getByTestId('turn-edit').click();
    const form = page.getByTestId('turn-edit-form');
    await page.getByTestId('turn-edit-input').fill(EDITED);
    await expect.poll(() => page.getByTestId('turn-edit-reason').textContent()).toMatch(/^Too long for llama3\.1:8b: .* Make room, or shorten the message\.$/);
    expect(await page.getByTestId('turn-edit-send').isDisabled()).toBe(true);
    await form.getByTestId('turn-edit-make-room').click();
    const choices = form.getByTestId('turn-edit-room-panel').getByTestId('context-choices');
    await choices.waitFor();
    // Planned for the chat up to the edited message, with the edit: its last cut is before the edit, in its words.
    expect(await choices.getByTestId('context-edit-note').textContent()).toContain('the messages after it are not sent');
    const cuts = choices.getByTestId('context-cut').locator('option');
    expect(await cuts.count()).toBe(2);
    expect(await cuts.last().textContent()).toMatch(/^“The last and longest note\. .*” \(4 messages before it\)$/);
    expect(Number(await choices.getAttribute('data-need'))).toBeGreaterThan(WINDOW);
    await shootAtBothWidths(page, 'edit-make-room', '[data-testid="turn-edit-form"]');

    // A choice begun and cancelled keeps the edit as typed, and sends nothing.
    await choices.getByTestId('context-cut').selectOption({ index: 1 });
    await choices.getByTestId('context-drop').click();
    expect(await choices.getByTestId('context-drop-summary').textContent()).toMatch(/^Leave 4 messages \([\d,.]+K? tokens\) out of what is sent\?/);
    await shootAtBothWidths(page, 'edit-make-room-drop', '[data-testid="turn-edit-form"]');
    await choices.getByTestId('context-drop-cancel').click();
    expect(await page.getByTestId('turn-edit-input').inputValue()).toBe(EDITED);
    expect(answers(replay)).toHaveLength(sent);

    await choices.getByTestId('context-drop').click();
    await choices.getByTestId('context-drop-confirm').click();
    // The edited message, its card and the answer take the original's place (the original's answer was the tip).
    await page.getByTestId('turn-edit-form').waitFor({ state: 'detached' });
    await page.locator('[data-card="context-dropped"]').waitFor();
    await waitTip(page, '[data-role="assistant"][data-status="done"]');
    // The request is what the card said: the four messages before the edited one left out, the edit sent; the third
    // note and its answer (after the edited message) are not in it.
    expect(answers(replay)).toHaveLength(sent + 1);
    expect(answers(replay).at(-1)!.messages.map((m) => m.content)).toEqual([EDITED]);
    expect(await page.getByTestId('turn-edit-form').count()).toBe(0);
    expect(await page.locator('[data-card="context-dropped"]').textContent()).toContain('the 4 messages before this point');
    const edited = page.locator(USER).last();
    expect(await edited.getByTestId('user-text').textContent()).toBe(EDITED);
    // The original message is the edit's sibling, one click away.
    expect(await edited.getByTestId('branch-position').textContent()).toMatch(/2\s*\/\s*2/);
    await shootAtBothWidths(page, 'edit-make-room-sent', '[data-card="context-dropped"]');
  });
});
