/**
 * The conversation list and the tree: search finding an old answer with highlighted snippets (Chinese and Japanese
 * words inside a sentence too), rename, delete with undo (a chat waiting to be deleted is not offered by search),
 * a reload reopening the open chat, and branches made by editing a message and by regenerating an answer,
 * switched with `< 1/2 >`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openPage } from './helpers/browser';
import { shootAtBothWidths } from './helpers/screenshots';
import { assistant, chatRoutes, modelOption, ollamaLines, openChatInOtherTab, send, sendInChats, startUi, stopUi, USER, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/** Regenerates the last answer on `page`, the server answering `text` this time. */
async function regenerateTo(page: UiSession['page'], replay: UiSession['replay'], text: string): Promise<void> {
  replay.setRoutes(chatRoutes(ollamaLines([{ content: text }])));
  await page.getByTestId('regenerate').click();
  await expect.poll(() => answer(page)).toBe(text);
  await waitIdle(page);
}

/** Sends a follow-up from `page`: what the model was sent, and the answers the page then shows. */
async function followUp(page: UiSession['page'], replay: UiSession['replay']): Promise<{ sent: string[]; shown: string[] }> {
  replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Follow-up answer.' }])));
  await send(page, 'Follow up on that');
  await waitIdle(page);
  const request = JSON.parse(replay.requests.filter((r) => r.path === '/api/chat').at(-1)?.body ?? '{}') as { messages: { role: string; content: string }[] };
  return { sent: request.messages.map((m) => m.content), shown: (await page.locator('[data-testid="turn"] [data-run="answer"]').allTextContents()).map((t) => t.trim()) };
}

const answer = (page: UiSession['page'], nth = 0) => assistant(page, nth).locator('[data-run="answer"]').textContent().then((t) => t?.trim());

describe('conversations', () => {
  it('finds an old answer by full-text search and opens its conversation', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Platypuses lay eggs and ' }, { content: 'detect electric fields.' }])));
    const { page, replay } = s;
    await send(page, 'Tell me about monotremes');
    await waitIdle(page);

    replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Paris is the capital of France.' }])));
    await page.getByTestId('new-chat').click();
    await send(page, 'Capital of France?');
    await waitIdle(page);
    await expect.poll(() => page.getByTestId('conversation-item').count()).toBe(2);

    await page.getByTestId('search-input').fill('electric');
    const hit = page.getByTestId('search-result');
    await expect.poll(() => hit.count()).toBe(1);
    expect(await hit.locator('mark').textContent()).toBe('electric');
    expect(await hit.locator('.search-snippet').textContent()).toContain('detect electric fields');
    await hit.click();
    await expect.poll(() => answer(page)).toBe('Platypuses lay eggs and detect electric fields.');

    // A query with markup stays text: no element is built from it. Its words are the phrase "b electric b", which
    // no turn holds, so the answer to it is "Nothing found." (waited for: the hits shown until then are the last
    // query's, and reading those once let this pass before the new query was answered).
    await page.getByTestId('search-input').fill('<b>electric</b>');
    await expect.poll(() => page.getByTestId('search-empty').isVisible()).toBe(true);
    expect(await page.locator('#sidebar b').count()).toBe(0);
    expect(await page.getByTestId('search-input').inputValue()).toBe('<b>electric</b>');
  });

  // Issue (files #8): a pasted search over 1,000 characters and a title over 300 said "Invalid request for
  // conversations:search." / "…:rename."; the search now sends its first 1,000 characters, the title field stops at 300.
  it('searches with a pasted page of text and renames with a very long title, with no refusal', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Platypuses detect electric fields.' }])));
    const { page } = s;
    await send(page, 'Tell me about monotremes');
    await waitIdle(page);
    await page.getByTestId('search-input').fill(`electric ${'fields '.repeat(300)}`);
    await expect.poll(() => page.getByTestId('search-result').count()).toBe(1);
    await page.getByTestId('search-input').fill('');

    const item = page.getByTestId('conversation-item');
    await page.getByTestId('conversation-rename').click();
    const input = page.getByTestId('conversation-rename-input');
    await input.fill('t'.repeat(400));
    expect(await input.inputValue()).toHaveLength(300);
    await input.press('Enter');
    await expect.poll(() => item.textContent()).toBe('t'.repeat(300));
    await page.reload();
    await expect.poll(() => item.textContent()).toBe('t'.repeat(300));
    expect(await page.getByTestId('notice').count()).toBe(0);
  });

  // Search audit: a chat renamed "Quarterly taxes" was listed under that title, and searching "taxes" said "Nothing found."
  it('finds a conversation by its title, as renamed, and opens it', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Sure.' }])));
    const { page } = s;
    await send(page, 'Tell me about monotremes');
    await waitIdle(page);
    await page.getByTestId('conversation-rename').click();
    await page.getByTestId('conversation-rename-input').fill('Quarterly taxes');
    await page.getByTestId('conversation-rename-input').press('Enter');
    await expect.poll(() => page.getByTestId('conversation-item').textContent()).toBe('Quarterly taxes');
    await page.getByTestId('new-chat').click();

    await page.getByTestId('search-input').fill('taxes');
    const hit = page.getByTestId('search-result');
    await expect.poll(() => hit.locator('mark').allTextContents()).toEqual(['taxes']);
    expect(await hit.textContent()).toBe('Quarterly taxes');
    // Marked as a message's words are, not in the browser's default yellow.
    const background = (sel: string) => page.locator(sel).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await background('[data-testid="search-title-hit"] mark')).not.toBe('rgb(255, 255, 0)');
    await hit.click();
    await expect.poll(() => page.locator(USER).textContent()).toContain('Tell me about monotremes');
  });

  it('renames a conversation, deletes it with undo, and deletes it for good after the undo window', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Sure.' }])));
    const { page } = s;
    await send(page, 'First chat');
    await waitIdle(page);
    const item = page.getByTestId('conversation-item');
    // The list starts with the user's first words, then the title lane names it from the model's answer
    // (the replay answers every request, the title request included, with "Sure.").
    await expect.poll(() => item.textContent()).toBe('Sure');

    await page.getByTestId('conversation-rename').click();
    await page.getByTestId('conversation-rename-input').fill('Renamed chat');
    await page.getByTestId('conversation-rename-input').press('Enter');
    await expect.poll(() => item.textContent()).toBe('Renamed chat');
    await page.reload();
    await expect.poll(() => item.textContent()).toBe('Renamed chat');

    await item.hover();
    await page.getByTestId('conversation-delete').click();
    await expect.poll(() => item.count()).toBe(0);
    await page.getByTestId('undo-delete').click();
    await expect.poll(() => item.count()).toBe(1);
    // It was the open chat: undo puts it back on screen too, not only in the list (turns audit #4).
    await expect.poll(() => page.locator(USER).getByTestId('user-text').textContent().catch(() => null)).toBe('First chat');
    expect(await item.getAttribute('aria-current')).toBe('true');

    await item.hover();
    await page.getByTestId('conversation-delete').click();
    await expect.poll(() => item.count()).toBe(0);
    // Hidden at once; main deletes it when the undo window (5 s) has passed, with this page still open (a reload
    // before then would commit it through the pagehide flush instead, which is not what this checks).
    await expect.poll(() => page.evaluate(() => window.firebrand.conversations.list({}).then((list) => list.length))).toBe(0);
    await page.reload();
    await page.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => window.firebrand.conversations.list({}).then((list) => list.length))).toBe(0);
    expect(await item.count()).toBe(0);
  });

  // Keyboard pass (sidebar): a row with the focus on its title hid its Rename, Export and Delete until Tab reached
  // them (they showed on hover only), and the list had no keys of its own: Tab went through every button of every row.
  it('shows a focused row’s buttons, moves between conversations with the arrows, renames on F2 and deletes on Delete or, on a Mac, Cmd+Backspace', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Sure.' }])));
    const { page } = s;
    await sendInChats(page, ['First chat', 'Second chat', 'Third chat']);
    const items = page.getByTestId('conversation-item');
    // Each named by the title lane ("Sure", the replay's answer to every request) before the list is walked.
    await expect.poll(() => items.allTextContents()).toEqual(['Sure', 'Sure', 'Sure']);
    const ids = await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-conversation-id') ?? ''));
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-conversation-id') ?? document.activeElement?.getAttribute('data-testid') ?? null);
    const actionsOpacity = (id: string) =>
      page.locator(`li:has(> [data-conversation-id="${id}"]) .row-actions`).evaluate((el) => getComputedStyle(el).opacity);
    // The mouse away from the list: only the focus may show a row's buttons.
    await page.mouse.move(900, 400);
    // The open chat is the newest (the first row), whose buttons show anyway; the second row's are hidden until it has the focus.
    expect(await items.nth(0).getAttribute('aria-current')).toBe('true');
    expect(await actionsOpacity(ids[1]!)).toBe('0');

    await items.nth(0).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(ids[1]);
    expect(await actionsOpacity(ids[1]!)).toBe('1');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(ids[2]);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused, { message: 'stays on the last' }).toBe(ids[2]);
    await page.keyboard.press('Home');
    await expect.poll(focused).toBe(ids[0]);
    await page.keyboard.press('End');
    await expect.poll(focused).toBe(ids[2]);
    // From a row's Delete, too, the arrows go to the next or previous conversation.
    await page.locator(`li:has(> [data-conversation-id="${ids[1]}"])`).getByTestId('conversation-delete').focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(focused).toBe(ids[0]);
    // Up from the first: the search box; down from it (empty): the first conversation.
    await page.keyboard.press('ArrowUp');
    await expect.poll(focused).toBe('search-input');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(ids[0]);

    // F2 renames the focused conversation; Enter saves, and the focus comes back to it.
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(ids[1]);
    await page.keyboard.press('F2');
    const input = page.getByTestId('conversation-rename-input');
    await expect.poll(() => input.evaluate((el) => el === document.activeElement).catch(() => false)).toBe(true);
    await input.fill('Renamed from the keyboard');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe(ids[1]);
    await expect.poll(() => page.locator(`[data-conversation-id="${ids[1]}"]`).textContent()).toBe('Renamed from the keyboard');

    // Delete deletes it, with Undo; the focus goes to the conversation that takes its place.
    await page.keyboard.press('Delete');
    await expect.poll(() => items.count()).toBe(2);
    await expect.poll(focused).toBe(ids[2]);
    await page.getByTestId('undo-toast').waitFor();
    await page.getByTestId('undo-delete').click();
    await expect.poll(() => items.count()).toBe(3);
    await expect.poll(focused).toBe(ids[1]);
    await page.getByTestId('undo-toast').waitFor({ state: 'detached' });

    // On a Mac, Cmd+Backspace (⌘ + delete, as in Finder) deletes it too; a bare Backspace, too easy to hit, does not
    // (had it, the Cmd+Backspace after it would have deleted a second one).
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Meta+Backspace');
    await page.getByTestId('undo-toast').waitFor();
    await expect.poll(() => items.count()).toBe(2);
    expect(await page.locator(`[data-conversation-id="${ids[1]}"]`).count()).toBe(0);
    await expect.poll(focused).toBe(ids[2]);
    await page.getByTestId('undo-delete').click();
    await expect.poll(() => items.count()).toBe(3);
    await expect.poll(focused).toBe(ids[1]);

    // The shortcuts list says so.
    await page.getByTestId('new-chat').focus();
    await page.keyboard.press('?');
    const list = page.getByTestId('shortcuts');
    await list.waitFor();
    const text = await list.textContent();
    expect(text).toContain('F2');
    expect(text).toContain('rename the conversation');
    expect(text).toContain('delete the conversation');
    expect(text).toContain('Cmd + Backspace');
    expect(text).toContain('↑ or ↓');
  });

  // Resilience audit R5: a chat deleted in another tab stayed on screen here, and a message sent in it failed with
  // "That conversation no longer exists." and a Retry that could only fail again.
  it('says so when the open chat is deleted in another tab, and keeps what was being typed for a new chat', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await send(page, 'Keep this chat');
    await waitIdle(page);
    const other = await openChatInOtherTab(s);
    try {
      await other.getByTestId('composer-input').fill('A half-typed thought');
      // Deleted in the first tab; for good once its undo window is over.
      await page.getByTestId('conversation-delete').first().click();
      await expect.poll(() => other.getByTestId('notice').locator('.banner-text').textContent().catch(() => ''), { timeout: 30_000 }).toBe(
        'The chat you had open was deleted in another window or tab. What you were typing is still here: sending it starts a new chat.',
      );
      // It only informs: nothing failed that trying again would mend, so Close and no Retry (round 10 showed one).
      expect(await other.getByTestId('notice').getByTestId('banner-retry').count()).toBe(0);
      expect(await other.getByTestId('notice').getByTestId('banner-close').count()).toBe(1);
      await shootAtBothWidths(other, 'notice-info-only');
      expect(await other.locator(USER).count()).toBe(0);
      expect(await other.getByTestId('composer-input').inputValue()).toBe('A half-typed thought');
      await other.getByTestId('composer-send').click();
      await waitIdle(other);
      expect(await other.locator(USER).allTextContents()).toEqual(['A half-typed thought']);
      await expect.poll(() => other.getByTestId('conversation-item').count()).toBe(1);
    } finally {
      await other.close();
    }
  });

  // Resilience audit R8: a chat opened in another tab mid-answer showed the answer with a hole (the words streamed
  // between main's last write and the open) until it ended.
  it('shows an answer opened mid-stream in another tab whole, with no hole and nothing twice', async () => {
    const words = Array.from({ length: 200 }, (_, i) => ({ content: ` w${i}` }));
    // A steady stream, held near its end so the second tab is checked while it still streams.
    s = await startUi(chatRoutes(ollamaLines(words), 20, 180));
    const { page, browser, serve, replay } = s;
    const other = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    try {
      await other.goto(serve.url);
      await modelOption(other, 'llama3.2:3b').waitFor({ state: 'attached' });
      await page.getByTestId('composer-input').fill('Count');
      await page.getByTestId('composer-send').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="turn"][data-role="assistant"]')?.textContent?.includes('w30'));
      await other.getByTestId('conversation-item').first().click();
      await expect.poll(() => replay.held).toBe(1);
      await other.waitForFunction(() => document.querySelector('[data-testid="turn"][data-role="assistant"]')?.textContent?.includes('w179'));
      const shown = await other.evaluate(() => {
        const turn = document.querySelector<HTMLElement>('[data-testid="turn"][data-role="assistant"]');
        return { status: turn?.dataset['status'], words: [...(turn?.textContent ?? '').matchAll(/w(\d+)/g)].map((m) => Number(m[1])) };
      });
      expect(shown.status).toBe('streaming');
      expect(shown.words).toEqual(Array.from({ length: 180 }, (_, i) => i));
      replay.release();
      await waitIdle(other);
    } finally {
      await other.close();
    }
  });

  // Resilience audit R10: a tab showing a chat kept showing the answer another tab had replaced (Regenerate there),
  // and a message sent from it followed that old answer on screen while the model was sent the new one.
  it('follows a chat regenerated in another tab, so a message sent here follows the answer it shows', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'First take.' }])));
    const { page, replay } = s;
    await send(page, 'Question');
    await waitIdle(page);
    const other = await openChatInOtherTab(s);
    try {
      await regenerateTo(page, replay, 'Second take.');
      // The other tab shows the answer the chat goes on from now, with its versions.
      await expect.poll(() => answer(other)).toBe('Second take.');
      await other.getByTestId('branch-switcher').first().waitFor();
      expect(await followUp(other, replay)).toEqual({ sent: ['Question', 'Second take.', 'Follow up on that'], shown: ['Second take.', 'Follow-up answer.'] });
    } finally {
      await other.close();
    }
  });

  // Conversations audit D2: a version switched to in one tab was not followed by another (no event said the chat
  // had changed), whose next message then went under the version main went on from while it showed the other one.
  it('follows a version switched to in another tab, so a message sent here follows the answer it shows', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'First take.' }])));
    const { page, replay } = s;
    await send(page, 'Question');
    await waitIdle(page);
    await regenerateTo(page, replay, 'Second take.');
    const other = await openChatInOtherTab(s);
    try {
      expect(await answer(other)).toBe('Second take.');
      await other.getByTestId('branch-prev').click();
      await expect.poll(() => answer(other)).toBe('First take.');
      // This tab shows the version the chat goes on from now, with its versions.
      await expect.poll(() => answer(page)).toBe('First take.');
      expect(await page.getByTestId('branch-position').first().textContent()).toBe('1/2');
      expect(await followUp(page, replay)).toEqual({ sent: ['Question', 'First take.', 'Follow up on that'], shown: ['First take.', 'Follow-up answer.'] });
    } finally {
      await other.close();
    }
  });

  it('finds a Chinese or Japanese word inside a sentence, marked in the hit and in the chat (audit files #7)', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: '明日は雨が降るでしょう。' }])));
    const { page } = s;
    await send(page, '東京の天気は晴れですか');
    await waitIdle(page);
    await page.getByTestId('new-chat').click();
    const hit = page.getByTestId('search-result');
    // Words inside the run: unicode61 made one token of it, and only "東京" (its start) was found.
    for (const [query, turn] of [['天気', 'user'], ['晴れです', 'user'], ['雨', 'assistant']] as const) {
      await page.getByTestId('search-input').fill(query);
      await expect.poll(() => hit.locator('mark').allTextContents()).toEqual([query]);
      expect(await hit.count()).toBe(1);
      await hit.click();
      const shown = page.locator(`[data-testid="turn"][data-search-hit][data-role="${turn}"]`);
      await expect.poll(() => shown.getAttribute('data-search-marks').catch(() => null)).toBe('1');
      await page.getByTestId('new-chat').click();
    }
  });

  // Search audit: "1.2.3" found nothing in "v1.2.3", "🚀" found nothing, and "x*y" and "C" were found but marked
  // nowhere in the opened chat. "2024-01-15" found nothing in "2024/01/15", nor "15.01.2024" or "1/15/2024" (the
  // same day, typed as most of the world or the US writes it).
  it('finds a version, a date however written, an emoji, a word with a symbol inside and a one-letter word, marked in the hit and in the chat', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Noted.' }])));
    const { page } = s;
    await send(page, 'Shipped v1.2.3 on 2024/01/15 🚀 with x*y fixed in the C code');
    await waitIdle(page);
    await page.getByTestId('new-chat').click();
    const hit = page.getByTestId('search-result');
    const queries = [['1.2.3', ['1.2.3']], ['2024-01-15', ['2024/01/15']], ['15.01.2024', ['2024/01/15']], ['1/15/2024', ['2024/01/15']], ['🚀', ['🚀']], ['x*y', ['x*y']], ['C', ['C', 'code']]] as const;
    for (const [query, marks] of queries) {
      await page.getByTestId('search-input').fill(query);
      await expect.poll(() => hit.locator('mark').allTextContents()).toEqual(marks);
      expect(await hit.count()).toBe(1);
      await hit.click();
      const shown = page.locator('[data-testid="turn"][data-search-hit][data-role="user"]');
      await expect.poll(() => shown.getAttribute('data-search-marks').catch(() => null)).toBe(String(marks.length));
      await page.getByTestId('new-chat').click();
    }
  });

  it('does not offer a chat waiting out its undo window in search (audit files #5)', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Kept.' }])));
    const { page } = s;
    await sendInChats(page, ['Remember the wombat', 'Another wombat chat']);
    const rows = page.locator('.conversation-row');
    await expect.poll(() => rows.count()).toBe(2);
    // Newest first: the last row is the first chat. Deleted, it waits out the undo window hidden.
    const [kept] = await page.evaluate(() => window.firebrand.conversations.list({}).then((list) => list.map((c) => c.id)));
    await rows.last().hover();
    await rows.last().getByTestId('conversation-delete').click();
    await expect.poll(() => rows.count()).toBe(1);

    // Main still has it, so it still matches: search does not offer it (opened, it was deleted under the reader).
    const hits = () => page.getByTestId('search-result').evaluateAll((els) => els.map((e) => e.getAttribute('data-conversation-id')));
    await page.getByTestId('search-input').fill('wombat');
    await expect.poll(hits).toEqual([kept]);
    await page.getByTestId('search-input').fill('remember');
    await page.getByTestId('search-empty').waitFor();
  });

  it('reopens the open chat on a reload, mid-answer too, and a new chat stays new (chat audit, notes)', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'First half, ' }, { content: 'second half.' }]), 40, 1));
    const { page, replay } = s;
    await send(page, 'Tell me in two halves');
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(() => answer(page)).toBe('First half,');
    await page.reload();
    // The same chat, still streaming in main: what came is shown, and the rest follows live.
    await expect.poll(() => page.locator(USER).getByTestId('user-text').textContent().catch(() => null)).toBe('Tell me in two halves');
    replay.release();
    await waitIdle(page);
    await expect.poll(() => answer(page)).toBe('First half, second half.');

    // A new chat chosen before the reload: nothing is kept to reopen, and the reload shows a new chat.
    await page.getByTestId('new-chat').click();
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('firebrand.open-conversation'))).toBeNull();
    await page.reload();
    await modelOption(page, 'llama3.2:3b').waitFor({ state: 'attached' });
    await expect.poll(() => page.getByTestId('conversation-item').count()).toBe(1);
    expect(await page.locator(USER).count()).toBe(0);
  });

  it('makes branches by editing a message and by regenerating, and switches between them', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Answer one.' }])));
    const { page, replay } = s;
    await send(page, 'Original question');
    await waitIdle(page);

    // Edit and resend: the edited message is a sibling of the original.
    replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Answer to the edit.' }])));
    await page.locator(USER).getByTestId('turn-edit').click();
    await page.getByTestId('turn-edit-input').fill('Edited question');
    await page.getByTestId('turn-edit-send').click();
    await waitIdle(page);
    await expect.poll(() => answer(page)).toBe('Answer to the edit.');
    expect(await page.locator(USER).getByTestId('branch-position').textContent()).toBe('2/2');
    // The last chat request (the meter's measure may ask the server other things after it).
    const lastChat = replay.requests.filter((r) => r.path === '/api/chat').at(-1);
    expect(JSON.stringify(lastChat?.body)).toContain('Edited question');
    expect(JSON.stringify(lastChat?.body)).not.toContain('Original question');

    await page.locator(USER).getByTestId('branch-prev').click();
    await expect.poll(() => page.locator(USER).getByTestId('user-text').textContent()).toBe('Original question');
    expect(await answer(page)).toBe('Answer one.');
    expect(await page.locator(USER).getByTestId('branch-position').textContent()).toBe('1/2');

    // Regenerate on this branch: a second answer to the original question.
    replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Answer two.' }])));
    await assistant(page).getByTestId('regenerate').click();
    await waitIdle(page);
    await expect.poll(() => answer(page)).toBe('Answer two.');
    await expect.poll(() => assistant(page).getByTestId('branch-position').textContent()).toBe('2/2');
    await assistant(page).getByTestId('branch-prev').click();
    await expect.poll(() => answer(page)).toBe('Answer one.');

    // The chosen branch is remembered: a reload shows it.
    await page.reload();
    await page.getByTestId('conversation-item').click();
    await expect.poll(() => answer(page)).toBe('Answer one.');
    expect(await page.locator(USER).getByTestId('user-text').textContent()).toBe('Original question');
    expect(await assistant(page).getByTestId('branch-position').textContent()).toBe('1/2');
  });

  // Turns audit #8: Edit and the branch arrows wait while an answer streams, but Regenerate did not: it started a
  // second answer and moved the view to it, while the first went on out of sight, where Stop could not reach it.
  it('offers no Regenerate on an earlier answer while the next one streams', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'First answer.' }])));
    const { page, replay } = s;
    await send(page, 'First question');
    await waitIdle(page);
    // The title lane asks after the answer: named from it, the chat asks nothing more until the next message.
    await expect.poll(() => page.getByTestId('conversation-item').textContent()).toBe('First answer');
    replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Second, ' }, { content: 'answer.' }]), 40, 1));
    await send(page, 'Second question');
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(() => assistant(page, 0).getByTestId('regenerate').isDisabled()).toBe(true);
    expect(await page.locator(USER).first().getByTestId('turn-edit').isDisabled()).toBe(true);
    replay.release();
    await waitIdle(page);
    await expect.poll(() => assistant(page, 0).getByTestId('regenerate').isDisabled()).toBe(false);
  });
});
