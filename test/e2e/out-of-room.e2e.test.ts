/**
 * Out of room (issue 21) through the UI: serve mode + Chromium + the stand-in Ollama. A conversation outgrows a
 * 4,096-token window; the refusal card (and the red meter) offer the ways on with their numbers; each choice's
 * next request is exactly what its card says; a reload keeps it all. Screenshots of the card and its choices at
 * 1280 and 390 px go to test-results/screenshots (or $FIREBRAND_SHOTS).
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { LAST, MODEL, NOTES, outOfRoomRoutes as routes, SUMMARY, SUMMARY_PROMPT_START, WINDOW } from '../support/out-of-room-scenario';
import type { ReplayServer } from '../replay-server/replay-server';
import { pickModel, startUi, stopUi, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

const CARD = '[data-card="context-refused"]';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

type Body = { messages: { role: string; content: string }[]; options?: { num_ctx?: number }; tools?: unknown[] };
const isSummary = (b: Body) => b.messages.some((m) => m.content.startsWith(SUMMARY_PROMPT_START));
/** The title lane's request, after a chat's first answer. */
const isTitle = (b: Body) => b.messages.some((m) => m.content.startsWith('Write a title'));
const answers = (replay: ReplayServer) => replay.requests.filter((r) => r.path === '/api/chat').map((r) => JSON.parse(r.body) as Body).filter((b) => !isSummary(b) && !isTitle(b));

/**
 * Waits until no turn streams and the tip of the branch is `selector`. The list is virtualized and follows the
 * bottom only while the user is there (a panel that opened and closed may have moved the view): look at the bottom.
 */
async function waitTip(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const scroller = document.querySelector('[data-testid="chat"] [data-virtuoso-scroller]');
    scroller?.scrollTo({ top: scroller.scrollHeight });
    const turns = [...document.querySelectorAll('[data-testid="turn"]')];
    return turns.length > 0 && !turns.some((t) => t.getAttribute('data-status') === 'streaming') && turns.at(-1)!.matches(sel);
  }, selector);
}

async function keepWindow(page: Page, window: number): Promise<void> {
  await page.evaluate(async ([model, w]) => {
    const api = (globalThis as unknown as { firebrand: { models: { setContext(r: unknown): Promise<unknown> } } }).firebrand;
    await api.models.setContext({ model, contextWindow: w, source: 'user' });
  }, [MODEL, window] as const);
  // Picking the model again makes the composer ask main for its window.
  await pickModel(page, 'llama3.2:3b');
  await pickModel(page, MODEL);
  await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-window')).toBe(String(window));
}

async function sendThrough(page: Page, text: string): Promise<void> {
  await page.getByTestId('composer-input').fill(text);
  await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(false);
  await page.getByTestId('composer-send').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement).value === '');
  await waitTip(page, '[data-role="assistant"][data-status="done"]');
}

/** Three long exchanges that fit the 4,096-token window; then the long note is typed and does not. */
async function growTo(page: Page, window: number, notes: readonly string[]): Promise<void> {
  await keepWindow(page, window);
  for (const note of notes) await sendThrough(page, note);
}

/**
 * The conversation as it was with a larger window (8,192), then the window made 4,096 (another machine, another
 * model setting) and the last answer asked for again: the preflight refuses, and its card offers the ways on.
 */
async function refused(page: Page): Promise<void> {
  await growTo(page, 2 * WINDOW, [...NOTES, LAST]);
  await keepWindow(page, WINDOW);
  await page.locator('[data-testid="turn"][data-role="assistant"]').last().getByTestId('regenerate').click();
  await waitTip(page, '[data-role="system"]');
  await page.locator(CARD).getByTestId('context-choices').waitFor();
}

describe('out of room in the UI', () => {
  it('the refusal card offers the ways on with their numbers; a summary takes the older turns’ place in the next request', async () => {
    s = await startUi(routes());
    const { page, replay } = s;
    await refused(page);
    const choices = page.locator(CARD).getByTestId('context-choices');
    // The card, the meter and the plan say the same number; the empty composer does not say "Type a message".
    const need = Number(await choices.getAttribute('data-need'));
    await expect.poll(async () => Number(await page.getByTestId('context-meter').getAttribute('data-estimate'))).toBe(need);
    expect(await page.getByTestId('context-meter').getAttribute('class')).toContain('over');
    expect(await page.getByTestId('composer-reason').textContent()).toContain('Make room');
    expect(await choices.getByTestId('context-larger').textContent()).toMatch(/Use a .*-token window/);
    expect(await choices.getByTestId('context-larger-cost').textContent()).toMatch(/needs \d+\.\d GiB.*the model reloads/);
    expect(await choices.getByTestId('context-summarize-cost').textContent()).toMatch(/^4 messages \(.* tokens\) become a summary/);
    await shootAtBothWidths(page, 'out-of-room-card', CARD);

    await choices.getByTestId('context-summarize').click();
    await waitTip(page, '[data-role="assistant"][data-status="done"]');
    const card = page.locator('[data-card="compaction"]');
    await card.getByTestId('compaction-summary').locator('summary').click();
    expect(await card.getByTestId('compaction-summary').textContent()).toContain(SUMMARY);
    const body = answers(replay).at(-1)!;
    expect(body.options?.num_ctx).toBe(WINDOW);
    expect(body.messages.map((m) => m.content)).toEqual([expect.stringContaining(SUMMARY), NOTES[2], 'Fine.', LAST]);
    // The refusal no longer offers anything: its message was answered.
    expect(await page.locator(CARD).getByTestId('context-choices').count()).toBe(0);
    await card.locator('details.compaction-covered summary').click();
    await shootAtBothWidths(page, 'out-of-room-summary', '[data-card="compaction"]');
    // A covered turn is one click away, and still in the chat (the list may have re-mounted the card: open again).
    const openCovered = async () => {
      const details = page.locator('[data-card="compaction"] details.compaction-covered');
      if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
      await page.locator('[data-card="compaction"]').getByTestId('compaction-covered').locator('button').first().click();
    };
    await openCovered();
    await page.locator('.turn-row.focused [data-role="user"]').waitFor();
    expect(await page.locator('.turn-row.focused [data-testid="user-text"]').textContent()).toBe(NOTES[0]);

    // A reload keeps the card, the covered turns and the answer. It reopens the chat that was open by itself: a click
    // on it as well opened it twice, and the second open, landing after the click on a covered turn (a busy CI
    // machine), put the chat back at its end with no turn focused.
    await page.reload();
    await page.locator('[data-card="compaction"]').waitFor();
    await openCovered();
    await page.locator('.turn-row.focused [data-role="user"]').waitFor();
  });

  it('the red meter makes room for a draft: the oldest turns left out after a confirmation with the count and tokens', async () => {
    s = await startUi(routes());
    const { page, replay } = s;
    await growTo(page, WINDOW, NOTES);
    await page.getByTestId('composer-input').fill(LAST);
    await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(true);
    expect(await page.getByTestId('context-meter').getAttribute('class')).toContain('over');
    await page.getByTestId('context-make-room').click();
    const choices = page.getByTestId('context-room-panel').getByTestId('context-choices');
    // The panel's plan counts the draft as the meter does: one number.
    const estimate = Number(await page.getByTestId('context-meter').getAttribute('data-estimate'));
    await expect.poll(async () => Number(await choices.getAttribute('data-need'))).toBe(estimate);
    await choices.getByTestId('context-drop').click();
    const ask = await choices.getByTestId('context-drop-summary').textContent();
    expect(ask).toMatch(/^Leave 4 messages \([\d,.]+K? tokens\) out of what is sent\? The request becomes/);
    await shootAtBothWidths(page, 'out-of-room-meter-drop', '[data-testid="context-room-panel"]');
    await choices.getByTestId('context-drop-confirm').click();
    await page.locator('[data-card="context-dropped"]').waitFor();
    // The panel went with the button pressed: the focus is in the message box, with the draft (keyboard audit #12).
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)).toBe('composer-input');
    expect(await page.locator('[data-card="context-dropped"]').textContent()).toContain('the 4 messages before this point');
    await shootAtBothWidths(page, 'out-of-room-dropped', '[data-card="context-dropped"]');
    // The draft stayed; it fits now, and goes without the turns left out.
    expect(await page.getByTestId('composer-input').inputValue()).toBe(LAST);
    await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(false);
    await page.getByTestId('composer-send').click();
    await waitTip(page, '[data-role="assistant"][data-status="done"]');
    expect(answers(replay).at(-1)!.messages.map((m) => m.content)).toEqual([NOTES[2], 'Fine.', LAST]);
  });

  it('continues in a new chat that starts from a summary and links back', async () => {
    s = await startUi(routes());
    const { page, replay } = s;
    await refused(page);
    await page.locator(CARD).getByTestId('context-new-chat').click();
    await page.getByTestId('conversation-item').filter({ hasText: 'Fine (continued)' }).waitFor();
    await waitTip(page, '[data-role="assistant"][data-status="done"]');
    // The new chat opens at its end; its first turn, the summary, is above the long message (the list is
    // virtualized: scroll to the top until it is there).
    await page.waitForFunction(() => {
      document.querySelector('[data-testid="chat"] [data-virtuoso-scroller]')?.scrollTo({ top: 0 });
      return document.querySelector('[data-card="compaction"] [data-testid="compaction-from"]') !== null;
    });
    expect(answers(replay).at(-1)!.messages.map((m) => m.content)).toEqual([expect.stringContaining(SUMMARY), LAST]);
    await shootAtBothWidths(page, 'out-of-room-new-chat', '[data-card="compaction"]');
    // The link back opens the earlier chat, which says where it went on.
    await page.waitForFunction(() => {
      document.querySelector('[data-testid="chat"] [data-virtuoso-scroller]')?.scrollTo({ top: 0 });
      const link = document.querySelector<HTMLButtonElement>('[data-card="compaction"] [data-testid="compaction-from"]');
      link?.click();
      return link !== null;
    });
    await page.waitForFunction(() => {
      const scroller = document.querySelector('[data-testid="chat"] [data-virtuoso-scroller]');
      scroller?.scrollTo({ top: scroller.scrollHeight });
      return document.querySelector('[data-card="continued"] [data-testid="continued-open"]') !== null;
    });
  });

  it('a message refused on the window: the card names what takes the room, no failed answer or Retry; Turn tools off sends it again', async () => {
    s = await startUi(routes());
    const { page, replay } = s;
    await keepWindow(page, 2 * WINDOW);
    await sendThrough(page, NOTES[0]!);
    expect(answers(replay).at(-1)!.tools?.length).toBeGreaterThan(0);
    // A window the message fits without the tools' definitions, not with them: asked again, it is refused.
    const withTools = Number(await page.getByTestId('context-meter').getAttribute('data-estimate'));
    // Before sending, the meter's tooltip names the same parts the card below does (it gave only the total).
    await page.getByTestId('composer-input').fill('A short draft');
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('title')).toMatch(
      /\(your choice for this model\)\. Tool definitions — [\d,]+ tokens; Your message — [\d,]+ tokens; Earlier turns — [\d,]+ tokens\. The estimate is/,
    );
    await page.getByTestId('composer-input').fill('');
    await keepWindow(page, withTools - 20);
    // Before sending, the reason under the message box names the tools, not the chat, as what leaves no room: it said
    // "Make room in the chat", and cutting the chat could not free what the tools' definitions take.
    await page.getByTestId('composer-input').fill('A short draft');
    await expect.poll(() => page.getByTestId('composer-reason').textContent()).toMatch(
      /^Too long for .*\. The tools this chat offers take about [\d,]+ tokens of the window: turn some off in Settings → Tools, or choose a larger window\.$/,
    );
    await shootAtBothWidths(page, 'out-of-room-tools-reason', '[data-testid="composer-reason"]');
    await page.getByTestId('composer-input').fill('');
    await page.locator('[data-testid="turn"][data-role="assistant"]').last().getByTestId('regenerate').click();
    await waitTip(page, '[data-role="system"]');
    const card = page.locator(CARD);
    // What takes the room, part by part, and the ways that apply.
    const parts = card.getByTestId('refusal-parts');
    expect(Number(await parts.locator('[data-part="tools"]').getAttribute('data-tokens'))).toBeGreaterThan(20);
    expect(await parts.locator('[data-part="message"]').textContent()).toMatch(/^Your message — [\d,]+ tokens$/);
    expect(await card.textContent()).toContain('Tool definitions');
    expect(await card.getByTestId('refusal-ways').locator('li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-way')))).toContain('tools-off');
    // Nothing was sent: no failed answer, no Retry; the message is there.
    expect(await page.locator('[data-testid="turn"][data-role="assistant"][data-status="error"]').count()).toBe(0);
    expect(await page.getByTestId('turn-retry').count()).toBe(0);
    expect(await page.locator('[data-testid="turn"][data-role="user"]').last().textContent()).toContain('Note 1 about sheep');
    await shootAtBothWidths(page, 'out-of-room-tools-card', CARD);

    await card.getByTestId('refusal-tools-off').click();
    await waitTip(page, '[data-role="assistant"][data-status="done"]');
    const body = answers(replay).at(-1)!;
    expect(body.tools).toBeUndefined();
    expect(body.messages.at(-1)!.content).toBe(NOTES[0]);
  });

  it('a draft of exactly the window is over everywhere: the meter, Send, in exact digits', async () => {
    s = await startUi(routes());
    const { page } = s;
    await keepWindow(page, 2 * WINDOW);
    await page.getByTestId('composer-input').fill(NOTES[0]!);
    await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(false);
    const estimate = Number(await page.getByTestId('context-meter').getAttribute('data-estimate'));
    // The window made exactly the request: not one token is left for the answer.
    await keepWindow(page, estimate);
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('data-estimate')).toBe(String(estimate));
    await expect.poll(() => page.getByTestId('context-meter').getAttribute('class')).toContain('over');
    expect(await page.getByTestId('composer-send').isDisabled()).toBe(true);
    const exact = estimate.toLocaleString('en-US');
    expect(await page.getByTestId('context-meter').locator('.meter-text').textContent()).toBe(`${exact} / ${exact} tokens`);
    // One token more of window, and it goes.
    await keepWindow(page, estimate + 1);
    await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(false);
    expect(await page.getByTestId('context-meter').getAttribute('class')).not.toContain('over');
  });

  // Context audit: auto-compact in a window the tool definitions all but fill summarized before every message.
  it('auto-compact where the tool definitions leave no room: one card says what takes it and what to do, and every message is answered', async () => {
    s = await startUi(routes());
    const { page, replay } = s;
    await page.evaluate(async () => {
      const api = (globalThis as unknown as { firebrand: { context: { setAutoCompact(r: unknown): Promise<unknown> } } }).firebrand;
      await api.context.setAutoCompact({ kind: 'connection', id: 'ollama', threshold: 0.75 });
    });
    await keepWindow(page, 512);
    const question = (n: string) => `${n} question about the weather on the hills. ${'The clouds roll over the river. '.repeat(6)}`;
    for (const n of ['First', 'Second', 'Third']) await sendThrough(page, question(n));
    const card = page.locator('[data-card="error"][data-reason="summary-failed"]');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.textContent()).toMatch(/tool definitions \(about \d+ tokens\) leave too little of this chat’s 512-token context window.*turn off some of the tools/);
    expect(replay.requests.filter((r) => r.body.includes(SUMMARY_PROMPT_START))).toHaveLength(0);
    expect(await page.locator('[data-testid="turn"][data-role="assistant"][data-status="done"]').count()).toBe(3);
    await shootAtBothWidths(page, 'auto-compact-no-room', '[data-card="error"]');
  });
});
