/**
 * Issue 17, answers a person can follow: each says which model (or alias) wrote it, a reopened conversation
 * brings its model back (and Regenerate uses it), the chat stays at the real end and offers "Jump to latest",
 * a search opens at the hit, a cut answer can be continued, math is typeset while it streams, an answer with
 * tool steps has one footer, files dropped anywhere are attached and open in a preview, and `?` lists shortcuts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ReplayRoute } from '../replay-server/replay-server';
import { answerRequests, ASSISTANT, assistant, chatRequests, chatRoutes, ollamaLines, pickModel, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const gap = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector('[data-testid="chat"] [data-virtuoso-scroller]') as HTMLElement | null;
    return el ? el.scrollHeight - el.scrollTop - el.clientHeight : -1;
  });

/** The chat request routes answered per request: `pick(body, n)` returns the NDJSON for the nth chat. */
function scripted(session: UiSession, pick: (body: string, n: number) => string): void {
  let n = 0;
  const base = chatRoutes('').filter((r) => r.path !== '/api/chat');
  session.replay.setOnRequest((req) => {
    if (req.path !== '/api/chat') return;
    const body = pick(req.body, req.body.includes('Write a title') ? -1 : n++);
    const route: ReplayRoute = { method: 'POST', path: '/api/chat', body, chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' } };
    session.replay.setRoutes([...base, route]);
  });
}

describe('answers', () => {
  it('labels each answer with its model, brings a reopened conversation’s model back, and Regenerate uses it', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi.' }]), 5));
    const { page, replay } = s;
    await pickModel(page, 'qwen3:8b');
    await send(page, 'Hello from the first chat');
    await waitIdle(page);
    expect(await assistant(page).getByTestId('model-label').textContent()).toBe('qwen3:8b');

    await page.getByTestId('new-chat').click();
    await pickModel(page, 'llama3.2:3b');
    await send(page, 'Hello from the second chat');
    await waitIdle(page);
    expect(await assistant(page).getByTestId('model-label').textContent()).toBe('llama3.2:3b');

    // Titles come from the model; the list is by recency, so the first chat is second.
    await page.getByTestId('conversation-item').nth(1).click();
    await expect.poll(() => page.locator('[data-testid="turn"][data-role="user"]').textContent()).toContain('Hello from the first chat');
    await page.locator(ASSISTANT).waitFor();
    await expect.poll(() => page.getByTestId('model-picker').getAttribute('data-value')).toBe('qwen3:8b');
    await assistant(page).getByTestId('regenerate').click();
    await expect.poll(() => assistant(page).getByTestId('branch-position').textContent()).toBe('2/2');
    await waitIdle(page);
    expect(answerRequests(replay).at(-1)).toMatchObject({ model: 'qwen3:8b' });
    expect(await assistant(page).getByTestId('model-label').textContent()).toBe('qwen3:8b');

    // An alias says so, with the model under it.
    await page.evaluate(() => window.firebrand.aliases.create({ name: 'coder', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: 'Code first.', parameters: {}, thinkMode: 'off', contextWindow: null }));
    await page.reload();
    await page.getByTestId('new-chat').click();
    await pickModel(page, 'coder');
    await send(page, 'Through the alias');
    await waitIdle(page);
    await expect.poll(() => assistant(page).getByTestId('model-label').textContent()).toBe('coderalias of llama3.2:3b');
  });

  it('stays at the real end when an answer finishes (its footer in view), and jumps to the latest when scrolled up', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => ({ content: i % 20 === 19 ? `Paragraph ${i}.\n\n` : `Sentence ${i} of a long answer. ` }));
    s = await startUi(chatRoutes(ollamaLines(lines), 2));
    const { page } = s;
    await send(page, 'Write a lot');
    await waitIdle(page);
    // The footer is drawn as the answer ends, a frame after the list reached the end: wait for both, not the first.
    const footerInView = async () => {
      const regenerate = await assistant(page).getByTestId('regenerate').boundingBox();
      const composer = await page.getByTestId('composer-input').boundingBox();
      return regenerate !== null && composer !== null && regenerate.y + regenerate.height <= composer.y && (await gap(page)) <= 1;
    };
    await expect.poll(footerInView).toBe(true);
    expect(await page.getByTestId('jump-to-latest').count()).toBe(0);

    await page.locator('[data-testid="chat"] [data-virtuoso-scroller]').hover();
    await page.mouse.wheel(0, -3000);
    await page.getByTestId('jump-to-latest').waitFor();
    await page.getByTestId('jump-to-latest').click();
    await expect.poll(() => gap(page)).toBeLessThanOrEqual(1);
    await page.getByTestId('jump-to-latest').waitFor({ state: 'detached' });
  });

  it('stays with a streaming answer when the list moves up without the reader (content shrinking under it)', async () => {
    const lines = Array.from({ length: 240 }, (_, i) => ({ content: i % 2 === 1 ? `Paragraph ${i}.\n\n` : `Sentence ${i} of a long answer. ` }));
    s = await startUi(chatRoutes(ollamaLines(lines), 2, 160));
    const { page, replay } = s;
    await send(page, 'Write a lot');
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(() => assistant(page).textContent()).toContain('Paragraph 159.');
    await expect.poll(() => gap(page)).toBeLessThanOrEqual(1);
    // What the browser does when content above the viewport's end shrinks (thinking folding away, a turn
    // re-measured): the list moves up, with a scroll event and no wheel, touch or key from the reader.
    await page.locator('[data-testid="chat"] [data-virtuoso-scroller]').evaluate(
      (el) =>
        new Promise<void>((done, fail) => {
          if (el.scrollTop < 1500) fail(new Error(`the answer is too short to move up from (${el.scrollTop} px)`));
          el.addEventListener('scroll', () => requestAnimationFrame(() => done()), { once: true });
          el.scrollTop = Math.max(0, el.scrollTop - 1500);
        }),
    );
    replay.release();
    await waitIdle(page);
    await expect.poll(() => assistant(page).textContent()).toContain('Paragraph 239.');
    await expect.poll(() => gap(page)).toBeLessThanOrEqual(1);
    await page.getByTestId('jump-to-latest').waitFor({ state: 'detached' });
  });

  it('opens a search hit at its message, highlighted', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'A reply that goes on for a while.\n\n'.repeat(12) }]), 1));
    const { page } = s;
    await send(page, 'The word is periwinkle, remember it');
    await waitIdle(page);
    for (let i = 0; i < 6; i++) {
      await send(page, `Filler message ${i}`);
      await waitIdle(page);
    }
    await page.getByTestId('new-chat').click();
    await page.getByTestId('search-input').fill('periwinkle');
    await page.getByTestId('search-result').first().click();
    const hit = page.locator('[data-testid="turn"][data-search-hit]');
    await hit.waitFor();
    expect(await hit.getByTestId('user-text').textContent()).toContain('periwinkle');
    await expect.poll(() => hit.getAttribute('data-search-marks')).toBe('1');
    const box = await hit.boundingBox();
    const chat = await page.getByTestId('chat').boundingBox();
    expect(box && chat && box.y >= chat.y && box.y + box.height <= chat.y + chat.height).toBe(true);
  });

  // Search found "cafe" in "Café" (the index folds case and accents), but the opened message had no word marked: the
  // chat matched the query's exact letters. "İstanbul" lowers to one letter more, so "city" after it marked "ity ".
  it('marks the searched word in the opened message whatever its accents and case', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'İstanbul city has a lovely café.' }]), 1));
    const { page } = s;
    await send(page, 'Tell me about Turkey');
    await waitIdle(page);
    await page.getByTestId('new-chat').click();
    const marks = () => page.evaluate(() => [...((CSS.highlights.get('search-hit') as Iterable<Range> | undefined) ?? [])].map((r) => r.toString()));
    for (const [query, marked] of [['cafe', 'café'], ['istanbul', 'İstanbul'], ['city', 'city'], ['CAFÉ', 'café']] as const) {
      await page.getByTestId('search-input').fill(query);
      const hit = page.getByTestId('search-result');
      await expect.poll(() => hit.locator('mark').allTextContents()).toEqual([marked]);
      await hit.click();
      await page.locator('[data-testid="turn"][data-search-hit][data-role="assistant"]').waitFor();
      await expect.poll(marks).toEqual([marked]);
      await page.getByTestId('new-chat').click();
    }
  });

  it('continues a cut answer from the kept text, and typesets math while it streams', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Mass and energy: $E = mc^2$, ' }, { content: 'and then it ran out of' }], 'length'), 5, 1));
    const { page, replay } = s;
    await send(page, 'Explain E=mc^2');
    await expect.poll(() => replay.held).toBe(1);
    await assistant(page).locator('.katex').waitFor();
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    replay.release();
    await waitIdle(page);
    replay.setRoutes(chatRoutes(ollamaLines([{ content: ' tokens, so here is the rest.' }])));
    await assistant(page).getByTestId('answer-continue').click();
    await expect.poll(() => page.locator(ASSISTANT).count()).toBe(2);
    await waitIdle(page);
    const continued = chatRequests(replay).find((b) => b.messages.at(-1)?.content.includes('Continue exactly where your last answer stopped'))?.messages ?? [];
    expect(continued.at(-2)).toMatchObject({ role: 'assistant', content: 'Mass and energy: $E = mc^2$, and then it ran out of' });
    expect(await page.getByTestId('answer-continue').count()).toBe(0);
    // Chat audit #3: the continued first answer still names the chat (Continue is not a second message of the user's).
    await expect.poll(() => page.getByTestId('conversation-item').first().textContent()).toBe('tokens, so here is the rest');
  });

  it('draws headings from largest to smallest, none smaller than the text', async () => {
    // h1, h2 and h3 were one size, and h4-h6 took the browser's own sizes: "###### Note" at two thirds of the text.
    const lines = [{ content: '# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n\nSome text.' }];
    s = await startUi(chatRoutes(ollamaLines(lines)));
    const { page } = s;
    await send(page, 'Show me every heading');
    await waitIdle(page);
    const sizes = await assistant(page)
      .locator('.markdown')
      .evaluate((el) => ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p'].map((tag) => Number.parseFloat(getComputedStyle(el.querySelector(tag)!).fontSize)));
    const [h1, h2, h3, h4, h5, h6, text] = sizes as [number, number, number, number, number, number, number];
    expect(h1).toBeGreaterThan(h2);
    expect(h2).toBeGreaterThan(h3);
    expect(h3).toBeGreaterThan(text);
    for (const small of [h4, h5, h6]) expect(small).toBeGreaterThanOrEqual(text);
    await shootAtBothWidths(page, 'answers-headings');
  });

  it('links a reference-style link to its definition in a later paragraph, as it streams and once done', async () => {
    // Models cite sources this way: `[text][1]` in the prose, `[1]: url` at the end. The answer is drawn a
    // paragraph at a time (split-blocks.ts), and the definitions sit in another paragraph than their links.
    const prose = 'See the [tutorial][1] and the [reference][Ref Two], or [PEP 8].';
    const defs = '[1]: https://docs.python.org/3/tutorial/\n[ref two]: https://docs.python.org/3/reference/ "The reference"\n[PEP 8]: https://peps.python.org/pep-0008/';
    const lines = [{ content: `${prose}\n\n` }, { content: 'A second paragraph.\n\n' }, { content: `${defs}\n` }, { content: '\nAnd ```a fence [1]```.' }];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, 3));
    const { page, replay } = s;
    await send(page, 'Where are the docs?');
    const links = () => assistant(page).locator('.markdown a').evaluateAll((as) => as.map((a) => `${a.textContent ?? ''} -> ${a.getAttribute('href') ?? ''}`));
    const expected = ['tutorial -> https://docs.python.org/3/tutorial/', 'reference -> https://docs.python.org/3/reference/', 'PEP 8 -> https://peps.python.org/pep-0008/'];
    // While the answer still streams (the definitions, whole lines, are its growing tail), the prose links already.
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(links).toEqual(expected);
    replay.release();
    await waitIdle(page);
    await expect.poll(links).toEqual(expected);
    // On hover, where it goes, then the title the definition gave it.
    expect(await assistant(page).locator('.markdown a').nth(1).getAttribute('title')).toBe('https://docs.python.org/3/reference/\nThe reference');
    const text = (await assistant(page).locator('.markdown').textContent()) ?? '';
    expect(text).not.toContain('][');
    expect(text).toContain('a fence [1]');
  });

  it('gives an answer with a tool step one stats line and one Regenerate, under its last step', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'x' }])));
    scripted(s, (_body, n) =>
      n === 0 ? ollamaLines([{ tool_calls: [{ function: { name: 'current_datetime', arguments: {} } }] }], 'stop') : ollamaLines([{ content: n < 0 ? 'Time' : 'It is now.' }]),
    );
    const { page } = s;
    await send(page, 'What time is it?');
    await expect.poll(() => page.locator(`${ASSISTANT}[data-status="done"]`).count()).toBe(2);
    await waitIdle(page);
    expect(await page.getByTestId('answer-stats').count()).toBe(1);
    expect(await page.getByTestId('regenerate').count()).toBe(1);
    expect(await page.getByTestId('model-label').count()).toBe(1);
    expect(await assistant(page, 1).getByTestId('regenerate').count()).toBe(1);
  });

  it('says why a chat that outgrew its window cannot go on when the box is empty, and why the window is what it is', async () => {
    // One long answer (about 5K tokens) fills the 4K default window: the next message cannot be sent at all.
    s = await startUi(chatRoutes(ollamaLines(Array.from({ length: 40 }, (_, i) => ({ content: `Part ${i}: ${'words '.repeat(90)}\n\n` }))), 1));
    const { page } = s;
    await send(page, 'Tell me everything');
    await waitIdle(page);
    await expect.poll(() => page.getByTestId('composer-reason').textContent()).toMatch(/This conversation is longer than llama3\.2:3b's window: about \d+(\.\d)?K tokens, its window holds 4K\. Make room to go on\./);
    expect(await page.getByTestId('composer-reason').textContent()).not.toContain('Type a message');
    expect(await page.getByTestId('composer-send').isDisabled()).toBe(true);
    // The window (the 4K default here) is shown with its reason, not only in a tooltip.
    expect(await page.getByTestId('context-meter').getAttribute('data-source')).toBe('fallback');
    // (The stand-in server describes no model, so no recommendation could be worked out; the reason says so.)
    expect(await page.getByTestId('context-reason').textContent()).toMatch(/^No recommendation: .+/);
    expect(await page.getByTestId('context-reason').isVisible()).toBe(true);
  });

  it('attaches files dropped anywhere in the window, opens them, and lists the shortcuts with ?', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Got it.' }])));
    const { page } = s;
    const transfer = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['the notes say hello'], 'notes.txt', { type: 'text/plain' }));
      return dt;
    });
    await page.dispatchEvent('[data-testid="chat"]', 'dragover', { dataTransfer: transfer });
    await page.dispatchEvent('[data-testid="chat"]', 'drop', { dataTransfer: transfer });
    await page.getByTestId('pending-attachments').getByText('notes.txt').waitFor();
    // Dropped on an open dialog (Settings): nothing is attached, and the browser is kept from opening the file in
    // the app's place (before, the drop was left to a dialog that has no drop of its own).
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-dialog').waitFor();
    const keptFromBrowser = await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['other'], 'other.txt', { type: 'text/plain' }));
      const dialog = document.querySelector('dialog[open]')!;
      const over = dialog.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      const drop = dialog.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      // dispatchEvent is false when a listener called preventDefault.
      return { over: !over, drop: !drop };
    });
    expect(keptFromBrowser).toEqual({ over: true, drop: true });
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-dialog').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('pending-attachments').getByTestId('attachment-open').allTextContents()).toEqual(['notes.txt']);
    await send(page, 'Read this');
    await waitIdle(page);
    await page.locator('[data-testid="turn"][data-role="user"]').getByTestId('attachment-open').click();
    await expect.poll(() => page.getByTestId('attachment-preview').textContent()).toContain('the notes say hello');
    await page.keyboard.press('Escape');
    await page.getByTestId('attachment-preview').waitFor({ state: 'detached' });

    await page.locator('body').click({ position: { x: 640, y: 300 } });
    await page.keyboard.press('?');
    await expect.poll(() => page.getByTestId('shortcuts').textContent()).toContain('New chat');
    await page.keyboard.press('Escape');
    await page.getByTestId('shortcuts').waitFor({ state: 'detached' });
  });
});
