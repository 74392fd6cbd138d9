/**
 * Rendering audit (fix4/rendering): answers in the shapes local models write (test/fixtures/model-output/NOTES.md)
 * read right in the chat: LaTeX's \( … \) and \[ … \] math typeset, also while it streams; Arabic and Hebrew read right
 * to left beside English, in the answer, the user's message and the chat's title; code shows the invisible characters
 * that would make it read other than it runs, and copies as written; `<br>` in a table cell breaks the line, and wide
 * tables, long URLs and long formulas scroll inside themselves on a phone. Screenshots at 1280 and
 * 390 px go to test-results/screenshots.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { assistant, chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';
import { SHOTS_DIR, shootAtBothWidths } from './helpers/screenshots';


let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/** The answer's text outside formulas and code, as the reader sees it. */
const prose = (page: Page) =>
  assistant(page)
    .locator('.markdown')
    .evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      for (const hidden of copy.querySelectorAll('.katex, .math-draft, code')) hidden.remove();
      return copy.textContent ?? '';
    });

describe('answers as local models write them', () => {
  it('typesets \\( … \\) and \\[ … \\] math (DeepSeek, Qwen) with no $ in the answer, and a \\[ block still streaming shows as a draft', async () => {
    // The integral of esengine/DeepSeek-Reasonix#2510: a dollars-only renderer showed "( \frac{1}{\cos x} = \sec x )".
    const lines = [
      { content: 'Since \\( \\frac{1}{\\cos x} = \\sec x \\), multiply by \\( \\sec x + \\tan x \\):\n\\[\n\\int \\sec x \\, dx = \\int \\frac{\\sec^2 x' },
      { content: ' + \\sec x \\tan x}{\\sec x + \\tan x} \\, dx\n\\]\n\nSo the answer is \\[ \\ln |\\sec x + \\tan x| + C \\] as in \\[1\\].' },
    ];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, 1));
    const { page, replay } = s;
    await send(page, 'integrate 1/cos(x)');
    await expect.poll(() => replay.held).toBe(1);
    // Held inside the \[ block: the sentence before it is typeset, the open formula is a draft, nothing is raw text.
    await expect.poll(() => assistant(page).locator('.markdown .katex').count()).toBe(2);
    await assistant(page).locator('.math-draft').waitFor();
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    expect(await prose(page)).not.toMatch(/\\|\(\s|\[\n/);
    replay.release();
    await waitIdle(page);
    await expect.poll(() => assistant(page).locator('.markdown .katex-display').count()).toBe(2);
    expect(await assistant(page).locator('.math-draft').count()).toBe(0);
    const text = await prose(page);
    expect(text).not.toContain('\\');
    expect(text).toContain('as in [1].');
    // What a screen reader reads of a formula is its MathML, not the TeX source after it (the sanitizer kept the
    // text of KaTeX's <annotation>: "… sec x ( \frac{1}{\cos x} = \sec x )").
    const spoken = await assistant(page).locator('.katex-mathml').allTextContents();
    expect(spoken).toHaveLength(4);
    for (const formula of spoken) expect(formula).not.toMatch(/\\|[{}]/);
    await shootAtBothWidths(page, 'model-output-math');
  });

  it('typesets a bare \\begin{align} … \\end{align} (Qwen, DeepSeek) as a display, a draft while it streams, and leaves one in code alone', async () => {
    const lines = [
      { content: 'Adding the two equations:\n\\begin{align}\nx + y &= 10 \\\\\n' },
      { content: 'x - y &= 2\n\\end{align}\nso \\( x = 6 \\).\n\nIn LaTeX:\n\n```tex\n\\begin{align}\na &= b\n\\end{align}\n```\n' },
    ];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, 1));
    const { page, replay } = s;
    await send(page, 'solve x + y = 10, x - y = 2');
    await expect.poll(() => replay.held).toBe(1);
    // Held inside the environment: its source as a draft, not as text with its & and \\ eaten by markdown.
    await assistant(page).locator('.math-draft').waitFor();
    expect(await prose(page)).not.toContain('\\begin');
    replay.release();
    await waitIdle(page);
    await expect.poll(() => assistant(page).locator('.markdown .katex-display').count()).toBe(1);
    expect(await assistant(page).locator('.math-draft').count()).toBe(0);
    expect(await prose(page)).not.toMatch(/\\begin|&=/);
    // The one in the code block is code, as written.
    expect(await assistant(page).locator('pre code').innerText()).toBe('\\begin{align}\na &= b\n\\end{align}\n');
    await shootAtBothWidths(page, 'model-output-bare-align');
  });

  it('reads a line that starts with $$…$$ and goes on as prose with a formula, not the rest of the answer as a grey draft', async () => {
    const answer = '$$E = mc^2$$ is the famous one.\n\nIt says mass and energy are the same thing.\n\n- so a little mass\n- is a lot of energy\n';
    s = await startUi(chatRoutes(ollamaLines([{ content: answer }]), 5));
    const { page } = s;
    await send(page, 'What is E = mc^2?');
    await waitIdle(page);
    await expect.poll(() => assistant(page).locator('.markdown .katex').count()).toBe(1);
    expect(await assistant(page).locator('.math-draft').count()).toBe(0);
    expect(await assistant(page).locator('.markdown p:has-text("mass and energy")').isVisible()).toBe(true);
    expect(await assistant(page).locator('.markdown li').allInnerTexts()).toEqual(['so a little mass', 'is a lot of energy']);
  });

  it('reads an Arabic answer, message and title right to left, and the English and the code beside them left to right', async () => {
    const answer = 'الجواب هو **نعم**، كما يلي:\n\n- أولا: افتح الملف.\n- ثانيا: احفظه.\n\nIn English: open the file, then save it.\n\n```py\nprint("مرحبا")\n```\n';
    s = await startUi(chatRoutes(ollamaLines([{ content: answer }]), 5));
    const { page } = s;
    await send(page, 'كيف أحفظ الملف؟\nHow do I save it?');
    await waitIdle(page);
    const direction = (selector: string) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).direction);
    const markdown = '[data-testid="turn"][data-role="assistant"] .markdown';
    expect(await direction(`${markdown} p:has-text("الجواب")`)).toBe('rtl');
    expect(await direction(`${markdown} ul`)).toBe('rtl');
    expect(await direction(`${markdown} p:has-text("In English")`)).toBe('ltr');
    expect(await direction(`${markdown} pre`)).toBe('ltr');
    // The list's indent, where its bullets go, is on the right, where an Arabic reader starts.
    const list = (await page.locator(`${markdown} ul`).boundingBox())!;
    const item = (await page.locator(`${markdown} li`).first().boundingBox())!;
    expect(Math.round(item.x)).toBe(Math.round(list.x));
    expect(list.x + list.width - (item.x + item.width)).toBeGreaterThan(10);
    // The user's message: each line in its own direction; the title and the chat's heading read right to left.
    expect(await direction('[data-testid="user-text"]')).toBe('rtl');
    // The stand-in server answers the title request with the same Arabic answer.
    await expect.poll(() => page.getByTestId('conversation-item').first().textContent()).toContain('الجواب');
    expect(await direction('[data-testid="conversation-item"]')).toBe('rtl');
    expect(await direction('.topbar-title')).toBe('rtl');
    await shootAtBothWidths(page, 'model-output-rtl');
  });

  it('shows Trojan Source characters in code as their code points, and Copy gives the code exactly as written', async () => {
    const answer = readFileSync(resolve(import.meta.dirname, '../fixtures/model-output/trojan-source.md'), 'utf8');
    s = await startUi(chatRoutes(ollamaLines([{ content: answer }]), 5));
    const { page } = s;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.serve.origin });
    await send(page, 'Write the admin check');
    await waitIdle(page);
    const js = assistant(page).locator('pre.code-block').first();
    const labels = () => js.locator('.invisible-char').evaluateAll((els) => els.map((el) => getComputedStyle(el, '::before').content));
    expect(await labels()).toEqual(['"U+202E"', '"U+2066"', '"U+2069"', '"U+2066"']);
    // The line reads as it runs: the comment is inside the string, after the override, not shown as code.
    expect(await js.locator('code').innerText()).toContain('if (accessLevel != "user');
    await js.locator('[data-copy-code]').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(answer.split('```js\n')[1]!.split('```')[0]);
    await shootAtBothWidths(page, 'model-output-trojan-source');
  });

  it('copies a selection of an answer as it reads: formulas as their TeX, code without its label and Copy button', async () => {
    // The browser's own copy took KaTeX's MathML and HTML both, a letter a line, and the code block's head with its code.
    const answer = 'By Pythagoras, $a^2+b^2=c^2$ for the sides.\n\n$$\\int_0^1 x\\,dx = \\tfrac{1}{2}$$\n\n```python\nprint(a ** 2 + b ** 2)\n```\n\nThat is all.';
    s = await startUi(chatRoutes(ollamaLines([{ content: answer }]), 5));
    const { page } = s;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.serve.origin });
    await send(page, 'Check the sides');
    await waitIdle(page);
    await assistant(page).locator('.katex-display').waitFor();
    const copySelection = async (from: string, to: string) => {
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await assistant(page).evaluate(
        (turn, [start, end]) => {
          const [first, last] = [turn.querySelector(start!), turn.querySelector(end!)];
          if (!first || !last) throw new Error('nothing to select');
          const range = document.createRange();
          range.setStartBefore(first);
          range.setEndAfter(last);
          getSelection()?.removeAllRanges();
          getSelection()?.addRange(range);
        },
        [from, to],
      );
      await page.keyboard.press('Control+c');
      return page.evaluate(() => navigator.clipboard.readText());
    };
    const whole = await copySelection('.markdown p', '.markdown .md-chunk:last-child p');
    expect(whole.replace(/\n+/g, '\n').trim()).toBe('By Pythagoras, $a^2+b^2=c^2$ for the sides.\n$$\\int_0^1 x\\,dx = \\tfrac{1}{2}$$\nprint(a ** 2 + b ** 2)\nThat is all.');
    // Code alone, without math, is the browser's own copy: the block's head is left out of it as well.
    const code = await copySelection('pre.code-block', 'pre.code-block');
    expect(code.trim()).toBe('print(a ** 2 + b ** 2)');
  });

  it('shows a right-to-left override in prose as its code point, and the words after it read in the order written', async () => {
    // Unclosed, a U+202E reversed the rest of the paragraph: "open txt.exe, then run it" read "ti nur neht ,exe.txt".
    const answer = 'Save it, then open \u202Etxt.exe and then run it.\n\nمرحبا بك، open config.json now.\n';
    s = await startUi(chatRoutes(ollamaLines([{ content: answer }]), 5));
    const { page } = s;
    await send(page, 'Which file?');
    await waitIdle(page);
    const paragraph = assistant(page).locator('.markdown p').first();
    // Polled: the answer's end can reach the page a render before its paragraph is drawn (ci-139, a busy machine).
    const labels = () => paragraph.locator('.invisible-char').evaluateAll((els) => els.map((el) => getComputedStyle(el, '::before').content));
    await expect.poll(labels).toEqual(['"U+202E"']);
    // Where each word is drawn, left to right: in the order the model wrote them.
    const lefts = await paragraph.evaluate((p) => {
      const at = (word: string) => {
        const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const i = node.textContent!.indexOf(word);
          if (i === -1) continue;
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + word.length);
          return range.getBoundingClientRect().left;
        }
        return NaN;
      };
      return ['open', 'txt.exe', 'then run', 'it.'].map(at);
    });
    expect(lefts).toEqual([...lefts].sort((a, b) => a - b));
    expect(await paragraph.innerText()).toContain('txt.exe and then run it.');
    // A paragraph in Arabic still reads right to left, with no marker.
    const arabic = assistant(page).locator('.markdown p').nth(1);
    expect(await arabic.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await arabic.locator('.invisible-char').count()).toBe(0);
    // The stand-in server names the chat with the same answer: the title, shown as text, has no override left in it.
    await expect.poll(() => page.locator('.topbar-title').innerText()).toContain('open txt.exe and then run it');
    await shootAtBothWidths(page, 'model-output-bidi-prose');
  });

  it("shows a right-to-left override in the user's own message and in a title they type as its code point, and Hebrew as it is", async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Yes, it is a program.' }]), 5));
    const { page } = s;
    // Pasted from a phishing mail: unmarked, "open \u202Etxt.exe and then run it" read "open ti nur neht dna exe.txt".
    await send(page, 'Is it safe to open \u202Etxt.exe and then run it?\nשלום, תודה');
    await waitIdle(page);
    const message = page.getByTestId('user-text');
    const labels = (where: typeof message) => where.locator('.invisible-char').evaluateAll((els) => els.map((el) => getComputedStyle(el, '::before').content));
    expect(await labels(message)).toEqual(['"U+202E"']);
    expect(await message.innerText()).toContain('txt.exe and then run it?');
    // What is copied is what was written.
    expect(await message.textContent()).toBe('Is it safe to open \u202Etxt.exe and then run it?\nשלום, תודה');
    // The user names the chat: the list and the heading mark it; the tooltip shows it as its code point.
    await page.getByTestId('conversation-rename').first().click();
    await page.getByTestId('conversation-rename-input').fill('Invoice \u202Efdp.exe');
    await page.getByTestId('conversation-rename-input').press('Enter');
    const item = page.getByTestId('conversation-item').first();
    await expect.poll(() => labels(item)).toEqual(['"U+202E"']);
    expect(await labels(page.locator('.topbar-title'))).toEqual(['"U+202E"']);
    expect(await item.getAttribute('title')).toBe('Invoice [U+202E]fdp.exe');
    expect(await page.locator('.topbar-title').textContent()).toBe('Invoice \u202Efdp.exe');
    await shootAtBothWidths(page, 'model-output-bidi-typed');
    // Renamed again, the field shows the override as its code point (before: raw, reversing the rest of the title as the
    // user edited it), and left as it is, the title is kept exactly; edited, the control stays where it was.
    await page.getByTestId('conversation-rename').first().click();
    expect(await page.getByTestId('conversation-rename-input').inputValue()).toBe('Invoice [U+202E]fdp.exe');
    await page.screenshot({ path: `${SHOTS_DIR}/model-output-bidi-rename-field-1280.png` });
    await page.getByTestId('conversation-rename-input').press('Enter');
    expect(await page.locator('.topbar-title').textContent()).toBe('Invoice \u202Efdp.exe');
    // On a phone, in the drawer.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('conversation-more').first().click();
    await page.getByTestId('conversation-menu-rename').click();
    expect(await page.getByTestId('conversation-rename-input').inputValue()).toBe('Invoice [U+202E]fdp.exe');
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await page.screenshot({ path: `${SHOTS_DIR}/model-output-bidi-rename-field-390.png` });
    await page.getByTestId('conversation-rename-input').press('Enter');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.locator('.topbar-title').textContent()).toBe('Invoice \u202Efdp.exe');
    await page.getByTestId('conversation-rename').first().click();
    await page.getByTestId('conversation-rename-input').press('End');
    await page.getByTestId('conversation-rename-input').pressSequentially(' (2)');
    await page.getByTestId('conversation-rename-input').press('Enter');
    await expect.poll(() => page.locator('.topbar-title').textContent()).toBe('Invoice \u202Efdp.exe (2)');
    // A Hebrew title is drawn as typed, right to left, with no marker.
    await page.getByTestId('conversation-rename').first().click();
    await page.getByTestId('conversation-rename-input').fill('חשבונית מרץ');
    await page.getByTestId('conversation-rename-input').press('Enter');
    await expect.poll(() => item.textContent()).toBe('חשבונית מרץ');
    expect(await item.locator('.invisible-char').count()).toBe(0);
    expect(await item.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    // Brackets the user types are text: before, a typed "[U+202E]" was saved as the override it names.
    await page.getByTestId('conversation-rename').first().click();
    await page.getByTestId('conversation-rename-input').pressSequentially('x [U+202E] y');
    await page.getByTestId('conversation-rename-input').press('Enter');
    await expect.poll(() => item.textContent()).toBe('חשבונית מרץx [U+202E] y');
    expect(await item.locator('.invisible-char').count()).toBe(0);
  });

  it('breaks lines at <br> in a gpt-oss table, and on a phone a wide table, URL, code span or formula scrolls only inside itself', async () => {
    const tags = readFileSync(resolve(import.meta.dirname, '../fixtures/model-output/html-in-answers.md'), 'utf8');
    const wide = `| ${Array.from({ length: 9 }, (_, i) => `Column ${i + 1}`).join(' | ')} |\n|${'---|'.repeat(9)}\n| ${Array.from({ length: 9 }, () => '`value_that_is_long`').join(' | ')} |`;
    const url = 'https://example.com/a/very/long/path/that/does/not/break/' + 'segment-'.repeat(20) + 'end';
    const formula = '$$\n' + Array.from({ length: 30 }, (_, i) => `x_{${i}}`).join(' + ') + '\n$$';
    const answer = `${tags}\n${wide}\n\nSee ${url} and \`${'a_long_identifier_'.repeat(8)}\`.\n\n${formula}\n`;
    s = await startUi(chatRoutes(ollamaLines([{ content: answer }]), 5));
    const { page } = s;
    await send(page, 'Compare the models');
    await waitIdle(page);
    await assistant(page).locator('.katex-display').waitFor();
    expect(await assistant(page).locator('td:has-text("Reasoning")').innerText()).toBe('Reasoning\nTool use');
    expect(await assistant(page).locator('p:has-text("Press")').innerText()).toBe('Press Ctrl+C to stop. Memory grows as O(n2); water is H2O.');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => document.getAnimations().length === 0);
    const sizes = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      markdown: [...document.querySelectorAll('.markdown')].map((el) => el.scrollWidth - el.clientWidth),
      tables: [...document.querySelectorAll('.markdown table')].map((el) => ({ scrolls: el.scrollWidth > el.clientWidth, right: el.getBoundingClientRect().right })),
    }));
    expect(sizes.page).toBe(0);
    expect(sizes.markdown.every((extra) => extra <= 0)).toBe(true);
    // The wide table scrolls inside itself, within the window.
    expect(sizes.tables.at(-1)?.scrolls).toBe(true);
    for (const table of sizes.tables) expect(table.right).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shootAtBothWidths(page, 'model-output-tables');
  });
});
