/**
 * How an answer looks: reasoning and answer as separate runs while both stream, an inline <think> split across
 * chunks never shown as text, markdown without raw HTML, tool-call cards, a stop reason with its retry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { assistant, chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

type Tagged = HTMLElement & { marked?: boolean };

/** Selects all of the element's text, as a reader does, and tags the element; resolves with the selected text. */
const selectAndTag = (target: Locator) =>
  target.evaluate((el: Tagged) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
    el.marked = true;
    return getSelection()?.toString() ?? '';
  });

/** Still tagged: the same element, never drawn again. */
const tagged = (target: Locator) => target.evaluate((el: Tagged) => el.marked === true);

/**
 * Sends `prompt` to an answer held after 13 of its lines and after 31 (chatRoutes). At the first hold, with 12 of
 * `parts` drawn, the reader selects all of the third one's text (or of `target` in it), which reads `selected`; at the
 * second, with 30 drawn, it is still the same element, the selection still there (`atSecondHold` checks more). Then
 * the answer finishes.
 */
async function selectWhileStreaming(
  session: UiSession,
  prompt: string,
  parts: Locator,
  selected: string,
  opts: { target?: (part: Locator) => Locator; atSecondHold?: () => Promise<void> } = {},
): Promise<void> {
  const { page, replay } = session;
  const target = () => (opts.target ? opts.target(parts.nth(2)) : parts.nth(2));
  await send(page, prompt);
  await expect.poll(() => replay.held).toBe(1);
  await expect.poll(() => parts.count()).toBe(12);
  expect(await selectAndTag(target())).toBe(selected);
  replay.release();
  await expect.poll(() => parts.count()).toBe(30);
  await expect.poll(() => replay.held).toBe(1);
  expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
  // The same element, never drawn again: the reader's selection is still there.
  expect(await tagged(target())).toBe(true);
  expect(await page.evaluate(() => getSelection()?.toString())).toBe(selected);
  await opts.atSecondHold?.();
  replay.release();
  await waitIdle(page);
}

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('answer runs', () => {
  it('shows native reasoning and the answer apart while both stream, then collapses the thinking', async () => {
    const thinking = Array.from({ length: 8 }, (_, i) => ({ thinking: `step ${i} of my reasoning. ` }));
    const answer = Array.from({ length: 25 }, (_, i) => ({ content: `word${i} ` }));
    const body = ollamaLines([...thinking, ...answer]);
    // Held after the reasoning and 3 words of the answer, until the test has looked: mid-stream on any machine.
    s = await startUi(chatRoutes(body, 60, thinking.length + 3));
    const { page, replay } = s;
    await send(page, 'Think first, then answer.');
    await expect.poll(() => replay.held).toBe(1);
    replay.setRoutes(chatRoutes(body, 60));

    const turn = assistant(page);
    // Both runs on screen at once while the answer still streams, reasoning first.
    await expect.poll(() => turn.locator('[data-run="answer"]').textContent()).toContain('word2');
    expect(await turn.getAttribute('data-status')).toBe('streaming');
    expect(await turn.locator('[data-run]').evaluateAll((els) => els.map((e) => e.getAttribute('data-run')))).toEqual(['reasoning', 'answer']);
    expect(await turn.locator('[data-run="answer"]').textContent()).not.toContain('reasoning');
    expect(await turn.locator('[data-run="reasoning"]').textContent()).toContain('step 7 of my reasoning');
    replay.release();

    await waitIdle(page);
    expect(await turn.getAttribute('data-status')).toBe('done');
    await expect.poll(() => turn.getByTestId('reasoning-summary').textContent()).toMatch(/^Thought for (under a second|\d+ s)$/);
    // Collapsed once the answer started.
    expect(await turn.locator('[data-run="reasoning"]').evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect((await turn.locator('[data-run="answer"]').textContent())?.trim()).toBe(answer.map((a) => a.content).join('').trim());

    // After a reload the timings come from the turn main kept, not from this window's clock.
    await page.reload();
    await page.getByTestId('conversation-item').first().click();
    await expect.poll(() => assistant(page).getByTestId('reasoning-summary').textContent()).toMatch(/^Thought for (under a second|\d+ s)$/);
    await expect.poll(() => assistant(page).getByTestId('answer-stats').textContent()).toMatch(/first token \d+ ms/);
  });

  it('never shows a <think> tag split across chunks as text', async () => {
    const lines = ['<thi', 'nk>Let me', ' think.</th', 'ink>The answer', ' is 42.'].map((content) => ({ content }));
    // Held after ' think.</th': the half-sent closing tag is on the wire and must not be on screen.
    s = await startUi(chatRoutes(ollamaLines(lines), 40, 3));
    const { page, replay } = s;
    const seen: string[] = [];
    await page.exposeFunction('__seen', (t: string) => seen.push(t));
    await page.evaluate(() => {
      const report = (window as unknown as { __seen: (t: string) => void }).__seen;
      const tick = () => {
        const el = document.querySelector('[data-testid="turn"][data-role="assistant"]');
        if (el) report(el.textContent ?? '');
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await send(page, 'What is six times seven?');
    await expect.poll(() => replay.held).toBe(1);
    replay.setRoutes(chatRoutes(ollamaLines(lines)));
    const turn = assistant(page);
    await expect.poll(() => turn.locator('[data-run="reasoning"]').textContent()).toContain('Let me think.');
    expect(await turn.getAttribute('data-status')).toBe('streaming');
    expect(await turn.textContent()).not.toMatch(/<\/?th|<thi/);
    replay.release();
    await waitIdle(page);
    expect((await turn.locator('[data-run="answer"]').textContent())?.trim()).toBe('The answer is 42.');
    expect(await turn.locator('[data-run="reasoning"]').textContent()).toContain('Let me think.');
    // Every frame sampled while it streamed, too.
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    for (const text of seen) expect(text).not.toMatch(/<\/?th|<thi/);
  });

  it('renders markdown (tables, code with copy) and never the model’s raw HTML or script links', async () => {
    const md = [
      '# Title\n\n',
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n',
      '```ts\nconst x: number = 1;\n```\n\n',
      '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>\n\n',
      '[bad](javascript:window.__pwned=3) and [good](https://example.com)\n',
    ].map((content) => ({ content }));
    s = await startUi(chatRoutes(ollamaLines(md)));
    const { page } = s;
    await send(page, 'Show me markdown');
    await waitIdle(page);
    const answer = assistant(page).locator('[data-run="answer"]');
    await expect.poll(() => answer.locator('table td').count()).toBe(2);
    expect(await answer.locator('pre code .hljs-keyword').count()).toBeGreaterThan(0);
    expect(await answer.locator('[data-copy-code]').count()).toBe(1);
    expect(await answer.locator('img, script').count()).toBe(0);
    expect(await answer.textContent()).toContain('<img src=x');
    expect(await answer.locator('a', { hasText: 'bad' }).count()).toBe(0);
    expect(await answer.locator('a', { hasText: 'good' }).getAttribute('target')).toBe('_blank');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  // Turns audit #3: serve mode opened by a LAN address is not a secure context, so the page has no clipboard API;
  // both Copy buttons threw and did nothing. (The init script takes the API away as such a page lacks it.)
  it('copies an answer and a code block on a page without the clipboard API, and says so when nothing can be copied', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Run this:\n\n' }, { content: '```sh\necho hi\n```\n' }])));
    const { page } = s;
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
      const copied: string[] = [];
      (window as unknown as { copied: string[] }).copied = copied;
      document.addEventListener('copy', (e) => {
        const target = e.target;
        copied.push(target instanceof HTMLTextAreaElement ? target.value.slice(target.selectionStart, target.selectionEnd) : (getSelection()?.toString() ?? ''));
      });
    });
    await page.reload();
    await send(page, 'How do I say hi?');
    await waitIdle(page);
    const copied = () => page.evaluate(() => (window as unknown as { copied: string[] }).copied);
    await assistant(page).locator('[data-copy-code]').click();
    await expect.poll(copied).toEqual(['echo hi\n']);
    await expect.poll(() => assistant(page).locator('[data-copy-code]').textContent()).toBe('Copied');
    await assistant(page).getByTestId('copy-answer').click();
    await expect.poll(copied).toEqual(['echo hi\n', 'Run this:\n\n```sh\necho hi\n```\n']);
    await expect.poll(() => assistant(page).getByTestId('copy-answer').getAttribute('aria-label')).toBe('Copied');

    // A browser that refuses every way to copy: the user is told, not left guessing.
    await page.evaluate(() => {
      document.execCommand = () => false;
    });
    await assistant(page).locator('[data-copy-code]').click();
    await expect.poll(() => page.getByTestId('notice').textContent()).toContain('could not copy');
    // Copying again is the user's to do: the notice has Close, no Retry.
    expect(await page.getByTestId('notice').getByTestId('banner-retry').count()).toBe(0);
  });

  // A long answer's finished blocks are boxed in groups the browser lays out on its own (chunk-groups.ts): the
  // boxes must not move a single block, whatever kinds of blocks meet at their edges.
  it('lays a long answer out exactly as without its layout boxes', async () => {
    const kinds = [
      (i: number) => `## Part ${i}\n\n`,
      (i: number) => `Paragraph ${i} explains the step in a sentence or two.\n\n`,
      (i: number) => `\`\`\`ts\nconst step${i} = ${i};\n\`\`\`\n\n`,
      (i: number) => `| key | value |\n|---|---|\n| k${i} | ${i} |\n\n`,
      (i: number) => `- item ${i}\n- another item\n\n`,
      (i: number) => `> A quote ${i}.\n\n`,
      (i: number) => `Another paragraph ${i}.\n\n`,
    ];
    // 150 blocks, each kind next to each other kind somewhere.
    const lines = Array.from({ length: 150 }, (_, i) => ({ content: kinds[(i * 3 + Math.floor(i / 7)) % kinds.length]!(i) }));
    s = await startUi(chatRoutes(ollamaLines(lines), 2));
    const { page } = s;
    await send(page, 'A long structured answer');
    await waitIdle(page);
    const answer = assistant(page).locator('[data-run="answer"] .markdown');
    await expect.poll(() => answer.textContent()).toContain('Another paragraph 149.');
    const layout = () =>
      answer.evaluate((root) => {
        const top = root.getBoundingClientRect().top;
        return [...root.querySelectorAll('.md-chunk > *')].map((el) => Math.round((el.getBoundingClientRect().top - top) * 10) / 10);
      });
    expect(await answer.locator('.md-group').count()).toBeGreaterThanOrEqual(3);
    // Box edges after a code block or a table, and before a code block, are among those compared.
    const edges = await answer.evaluate((root) =>
      [...root.querySelectorAll('.md-group, .md-run')].map((g) => [g.firstElementChild?.firstElementChild?.tagName.toLowerCase(), g.lastElementChild?.lastElementChild?.tagName.toLowerCase()]),
    );
    expect(edges.some(([, end]) => end !== 'p' && end !== 'ul' && end !== 'blockquote')).toBe(true);
    expect(edges.slice(1).some(([start]) => start === 'pre')).toBe(true);
    const boxed = await layout();
    // Without the boxes: the groups and the open run's box taken out of the layout, their chunks laid out as
    // children of the answer itself.
    await answer.evaluate((root) => root.querySelectorAll<HTMLElement>('.md-group, .md-run').forEach((g) => (g.style.display = 'contents')));
    expect(boxed.length).toBe(150);
    expect(boxed).toEqual(await layout());
  });

  it('keeps a selection in a streaming answer as it grows and its finished blocks are boxed into a group', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({ content: `Paragraph ${i} says something worth quoting.\n\n` }));
    // Held after 10 blocks (no group yet: one closes after 32), while the reader selects one; then held again
    // past the first group, the answer still streaming.
    s = await startUi(chatRoutes(ollamaLines(lines), 20, [10, 45]));
    const { page, replay } = s;
    await send(page, 'A long answer');
    await expect.poll(() => replay.held).toBe(1);
    const answer = assistant(page).locator('[data-run="answer"] .markdown');
    await expect.poll(() => answer.textContent()).toContain('Paragraph 8');
    expect(await answer.locator('.md-group').count()).toBe(0);
    const quote = 'Paragraph 3 says something worth quoting.';
    const selected = await answer.evaluate((root, quote) => {
      const p = [...root.querySelectorAll('p')].find((el) => el.textContent === quote);
      if (!p) return '';
      const range = document.createRange();
      range.selectNodeContents(p);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      return getSelection()?.toString() ?? '';
    }, quote);
    expect(selected).toBe(quote);
    replay.release();
    await expect.poll(() => answer.textContent()).toContain('Paragraph 40');
    await expect.poll(() => replay.held).toBe(1);
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    expect(await answer.locator('.md-group').count()).toBeGreaterThanOrEqual(1);
    // Its block went into the group as it was (the same element), and the text around it never went back to an
    // older copy: the reader's selection is still there.
    expect(await page.evaluate(() => getSelection()?.toString())).toBe(quote);
    replay.release();
    await waitIdle(page);
    expect(await page.evaluate(() => getSelection()?.toString())).toBe(quote);
  });

  // A streaming list is drawn item by item (markdown/list-view.ts): a finished item is not drawn again at each token.
  it('keeps a selection in a streaming list as more items come, and ends with the list markdown draws', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({ content: `${i + 1}. **Step ${i + 1}:** run \`make ${i}\`\n${' '.repeat(`${i + 1}. `.length)}- it checks part ${i}\n` }));
    s = await startUi(chatRoutes(ollamaLines(lines), 20, [12, 30]));
    const { page, replay } = s;
    await send(page, 'A long list of steps');
    await expect.poll(() => replay.held).toBe(1);
    const list = assistant(page).locator('[data-run="answer"] .markdown ol');
    await expect.poll(() => list.locator(':scope > li').count()).toBe(12);
    const quote = 'Step 3: run make 2';
    // From the start of item 3 into its code: "Step 3: run make 2".
    const selected = await list.evaluate((ol) => {
      const item = ol.children[2];
      const first = item?.firstChild;
      if (!item || !first) return '';
      const range = document.createRange();
      range.setStart(first, 0);
      range.setEnd(item.querySelector('code')!.firstChild!, 'make 2'.length);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      (item as Tagged).marked = true;
      return getSelection()?.toString() ?? '';
    });
    expect(selected).toBe(quote);
    replay.release();
    await expect.poll(() => list.locator(':scope > li').count()).toBe(30);
    await expect.poll(() => replay.held).toBe(1);
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    // The same element, never drawn again: the reader's selection is still there.
    expect(await tagged(list.locator(':scope > li').nth(2))).toBe(true);
    expect(await page.evaluate(() => getSelection()?.toString())).toBe(quote);
    replay.release();
    await waitIdle(page);
    // Finished, the answer is drawn whole: one list of 40 items, each with its own sub-list, as while it streamed.
    expect(await list.count()).toBe(1);
    expect(await list.locator(':scope > li').count()).toBe(40);
    expect(await list.locator(':scope > li > ul > li').allTextContents()).toEqual(Array.from({ length: 40 }, (_, i) => `it checks part ${i}`));
    expect(await list.locator(':scope > li p').count()).toBe(0);
  });

  // A list's last item that ends in a long list of its own: that list is drawn item by item too (list-view.ts,
  // Sublist); the item was drawn whole at every token, its 300 sub-items at ~11 ms a token (bench/streaming-code).
  it('keeps a selection in the sub-list a streaming list item ends in, and ends with the list markdown draws', async () => {
    const tips = Array.from({ length: 40 }, (_, i) => ({ content: `   - **Tip ${i + 1}:** keep \`part ${i}\` short\n` }));
    const lines = [{ content: '1. Set it up.\n2. The tips:\n' }, ...tips];
    s = await startUi(chatRoutes(ollamaLines(lines), 20, [13, 31]));
    const list = assistant(s.page).locator('[data-run="answer"] .markdown ol');
    const tipItems = list.locator(':scope > li:nth-child(2) > ul > li');
    // The item's head is shown once.
    await selectWhileStreaming(s, 'Tips, in a list', tipItems, 'Tip 3: keep part 2 short', {
      atSecondHold: async () => expect(await list.locator(':scope > li').allInnerTexts()).toEqual(['Set it up.', expect.stringMatching(/^The tips:\n/)]),
    });
    // Finished, the answer is drawn whole: the same list, the tips under its second item.
    expect(await list.count()).toBe(1);
    expect(await list.locator(':scope > li').count()).toBe(2);
    expect(await tipItems.allTextContents()).toEqual(Array.from({ length: 40 }, (_, i) => `Tip ${i + 1}: keep part ${i} short`));
    expect(await list.locator('li p').count()).toBe(0);
  });

  // And a table in the list's last item, row by row.
  it('keeps a selection in the table a streaming list item ends in, and ends with the list markdown draws', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ content: `   | ${i + 1} | \`make step-${i}\` | builds **part ${i}** |\n` }));
    const lines = [{ content: '1. Set it up.\n2. The steps:\n   | # | command | what it does |\n   |--:|---|---|\n' }, ...rows];
    s = await startUi(chatRoutes(ollamaLines(lines), 20, [13, 31]));
    const list = assistant(s.page).locator('[data-run="answer"] .markdown ol');
    const bodyRows = list.locator(':scope > li:nth-child(2) > table > tbody > tr');
    await selectWhileStreaming(s, 'Steps, in a list', bodyRows, 'builds part 2', {
      target: (row) => row.locator('td').nth(2),
      atSecondHold: async () => expect(await list.locator(':scope > li').allInnerTexts()).toEqual(['Set it up.', expect.stringMatching(/^The steps:\n/)]),
    });
    expect(await list.locator(':scope > li').count()).toBe(2);
    expect(await bodyRows.count()).toBe(40);
    expect(await bodyRows.nth(39).innerText()).toBe('40\tmake step-39\tbuilds part 39');
  });

  // And a streaming table row by row (markdown/table-view.ts).
  it('keeps a selection in a streaming table as more rows come, and ends with the table markdown draws', async () => {
    const head = { content: '| # | command | what it does |\n|--:|---|---|\n' };
    const rows = Array.from({ length: 40 }, (_, i) => ({ content: `| ${i + 1} | \`make step-${i}\` | builds **part ${i}** |\n` }));
    s = await startUi(chatRoutes(ollamaLines([head, ...rows]), 20, [13, 31]));
    const table = assistant(s.page).locator('[data-run="answer"] .markdown table');
    const bodyRows = table.locator('tbody > tr');
    await selectWhileStreaming(s, 'A table of steps', bodyRows, 'builds part 2', { target: (row) => row.locator('td').nth(2) });
    expect(await table.count()).toBe(1);
    expect(await bodyRows.count()).toBe(40);
    expect(await table.locator('thead th').allTextContents()).toEqual(['#', 'command', 'what it does']);
    expect(await table.locator('tbody > tr > td:nth-child(2) code').allTextContents()).toEqual(Array.from({ length: 40 }, (_, i) => `make step-${i}`));
  });

  // And a streaming quote by its content's chunks (markdown/growing-quote.ts): it was drawn whole at every token.
  it('keeps a selection in a streaming quote as more of it comes, and ends with the quote markdown draws', async () => {
    const points = Array.from({ length: 40 }, (_, i) => ({ content: `> **Point ${i + 1}:** keep \`part ${i}\` short\n>\n` }));
    s = await startUi(chatRoutes(ollamaLines([{ content: 'As the guide says:\n\n' }, ...points]), 20, [13, 31]));
    const quote = assistant(s.page).locator('[data-run="answer"] .markdown blockquote');
    const paragraphs = quote.locator('p');
    const spacing = () => paragraphs.evaluateAll((ps) => ps.slice(1, 30).map((p, i) => Math.round(p.getBoundingClientRect().top - ps[i]!.getBoundingClientRect().bottom)));
    let gaps: number[] = [];
    // One quote, laid out as one.
    await selectWhileStreaming(s, 'Quote the guide', paragraphs, 'Point 3: keep part 2 short', {
      atSecondHold: async () => {
        expect(await quote.count()).toBe(1);
        gaps = await spacing();
      },
    });
    expect(await quote.count()).toBe(1);
    expect(await paragraphs.allTextContents()).toEqual(Array.from({ length: 40 }, (_, i) => `Point ${i + 1}: keep part ${i} short`));
    // Drawn whole now, with the same space between its paragraphs as while it streamed.
    expect(await quote.locator(':scope > p').count()).toBe(40);
    expect(gaps).toHaveLength(29);
    expect(await spacing()).toEqual(gaps);
  });

  it('shows a tool call as a card with its name and arguments', async () => {
    const body = ollamaLines([{ tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] }]);
    s = await startUi(chatRoutes(body));
    const { page } = s;
    await send(page, 'Weather in Paris?');
    await waitIdle(page);
    const card = assistant(page).locator('[data-card="tool-call"]');
    await expect.poll(() => card.textContent()).toContain('get_weather');
    // Each argument on its own line, as words, not raw JSON (issue 17).
    expect(await card.locator('dt').allTextContents()).toEqual(['city']);
    expect(await card.locator('dd').allTextContents()).toEqual(['Paris']);
  });

  it('shows a stop other than end_turn with a retry that regenerates, and the answer numbers', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'This answer runs out of' }], 'length')));
    const { page, replay } = s;
    await send(page, 'Write a long story');
    await waitIdle(page);
    await expect.poll(() => assistant(page).getByTestId('turn-error').textContent()).toContain('token limit');
    expect(await assistant(page).getByTestId('answer-stats').textContent()).toMatch(/1 token · [\d.]+ tok\/s · first token/);

    replay.setRoutes(chatRoutes(ollamaLines([{ content: 'A complete story.' }])));
    await assistant(page).getByTestId('turn-retry').click();
    await expect.poll(() => assistant(page).getByTestId('branch-position').textContent()).toBe('2/2');
    await waitIdle(page);
    expect((await assistant(page).locator('[data-run="answer"]').textContent())?.trim()).toBe('A complete story.');
    expect(await assistant(page).getByTestId('turn-error').count()).toBe(0);
  });

  it('follows a long streaming answer to the bottom of the virtualized list', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => ({ content: i % 20 === 19 ? `Paragraph ${i}.\n\n` : `Sentence ${i} of a long answer. ` }));
    s = await startUi(chatRoutes(ollamaLines(lines), 5));
    const { page } = s;
    await send(page, 'Write a lot');
    await waitIdle(page);
    const gap = () =>
      page.evaluate(() => {
        const el = document.querySelector('[data-testid="chat"] [data-virtuoso-scroller]') as HTMLElement | null;
        return el ? el.scrollHeight - el.scrollTop - el.clientHeight : -1;
      });
    await expect.poll(gap).toBeLessThan(40);
    expect(await gap()).toBeGreaterThanOrEqual(0);
    expect((await assistant(page).locator('[data-run="answer"] p').count()) >= 15).toBe(true);
  });

  // react-virtuoso hides a list's rows until it has scrolled to its opening place and seen the list unchanged
  // for 150 ms, and gives that up after 1.2 s: under an answer that kept growing, a new chat showed nothing while
  // its first answer streamed, and often not after it either.
  it('shows a new chat\'s question and answer while a long answer streams and after it ends', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => ({ content: i % 20 === 19 ? `Paragraph ${i}.\n\n` : `Sentence ${i} of a long answer. ` }));
    s = await startUi(chatRoutes(ollamaLines(lines), 10));
    const { page } = s;
    await send(page, 'Write a lot, slowly');
    await expect.poll(() => assistant(page).textContent()).toContain('Sentence 40 ');
    // Mid-stream (3 s of it at 10 ms a line; at its end on a slow machine, which must hold too).
    expect(await page.locator('[data-testid="turn"][data-role="user"]').isVisible()).toBe(true);
    expect(await assistant(page).locator('[data-run="answer"]').isVisible()).toBe(true);
    await waitIdle(page);
    await expect.poll(() => page.getByText('Paragraph 299.').isVisible()).toBe(true);
  });

  it('shows a chat opened again while its answer streams, once it has found its end', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => ({ content: i % 20 === 19 ? `Paragraph ${i}.\n\n` : `Sentence ${i} of a long answer. ` }));
    s = await startUi(chatRoutes(ollamaLines([{ content: 'A short first answer.' }]), 10));
    const { page, replay } = s;
    // The streaming answer is the last turn; the first may be out of the list's window (virtualized).
    const answer = () => page.locator('[data-testid="turn"][data-role="assistant"]').last();
    await send(page, 'First question');
    await waitIdle(page);
    // The title lane asks after the first answer is done: until the list shows its title, that request may still
    // come, and would meet the held routes below and take the one release meant for the answer.
    await expect.poll(() => page.getByTestId('conversation-item').first().textContent()).toBe('A short first answer');
    // Held near its end until the check below: the answer is still streaming when the list is seen.
    replay.setRoutes(chatRoutes(ollamaLines(lines), 10, 390));
    await send(page, 'Now write a lot, slowly');
    await expect.poll(() => answer().textContent()).toContain('Sentence 20 ');
    // Away to a new chat and back while the answer goes on streaming: the list mounts with three turns and more
    // coming, so it has a place to find.
    await page.getByTestId('new-chat').click();
    await expect.poll(() => page.locator('[data-testid="turn"]').count()).toBe(0);
    await page.getByTestId('conversation-item').first().click();
    // Shown while it streams: before, the rows stayed hidden until the answer ended, or for good.
    const shownStreaming = () => answer().evaluate((turn) => turn.getAttribute('data-status') === 'streaming' && turn.checkVisibility({ visibilityProperty: true }));
    await expect.poll(shownStreaming).toBe(true);
    replay.release();
    await waitIdle(page);
    await expect.poll(() => page.getByText('Paragraph 399.').isVisible()).toBe(true);
  });
});
