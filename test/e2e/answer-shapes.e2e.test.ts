/**
 * Rendering audit, second round (fix5/rendering2): code in the languages local models write beyond the bundled
 * ones is highlighted, its grammar fetched only by a page that shows it; a table that is streaming is a table from
 * its header row on; <details> folds. Screenshots at 1280 and 390 px go to test-results/screenshots.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { assistant, chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';
import { shootAtBothWidths } from './helpers/screenshots';


let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/** The grammar chunks the page fetched (grammars.ts: one per language loaded on demand). */
function grammarFetches(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (r) => {
    const name = /\/assets\/(csharp|kotlin|ruby|php|swift|ini|dockerfile|powershell|r|lua|scala)-[\w-]+\.js$/.exec(r.url())?.[1];
    if (name) fetched.push(name);
  });
  return fetched;
}

describe('answers in the shapes models write them (second round)', () => {
  it('highlights C# and PowerShell, fetching just their grammars, and a bundled language at once', async () => {
    const answer = 'In C#:\n\n```cs\npublic class Greeter { public string Name = "Ada"; }\n```\n\nIn PowerShell:\n\n```ps1\nGet-ChildItem -Path "C:\\logs"\n```\n\nIn Python:\n\n```py\nname = "Ada"\n```\n';
    s = await startUi(chatRoutes(ollamaLines([{ content: answer }]), 5));
    const { page } = s;
    const fetched = grammarFetches(page);
    await send(page, 'Greet Ada in three languages');
    await waitIdle(page);
    const block = (n: number) => assistant(page).locator('pre.code-block code').nth(n);
    await expect.poll(() => block(0).locator('.hljs-keyword').count()).toBeGreaterThan(0);
    await expect.poll(() => block(1).locator('[class^="hljs-"]').count()).toBeGreaterThan(0);
    expect(await block(2).locator('.hljs-string').count()).toBe(1);
    expect((await block(0).innerText()).trim()).toBe('public class Greeter { public string Name = "Ada"; }');
    // Only the two grammars this answer needs came over the wire.
    expect([...fetched].sort()).toEqual(['csharp', 'powershell']);
    await shootAtBothWidths(page, 'answer-shapes-code');
  });

  it('shows a streaming table as a table from its header row, never as "| a | b |" text', async () => {
    const lines = [{ content: 'The results:\n\n| Model | Size | Speed |' }, { content: '\n|:--' }, { content: '-|---|---|\n| Qwen | 7B | fast |\n' }];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, [1, 2]));
    const { page, replay } = s;
    await send(page, 'Compare them');
    const markdown = assistant(page).locator('.markdown');
    const headers = () => markdown.locator('th').allInnerTexts();
    const rawPipes = () => markdown.evaluate((el) => [...el.querySelectorAll('p')].some((p) => p.textContent?.includes('|')));
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(headers).toEqual(['Model', 'Size', 'Speed']);
    expect(await rawPipes()).toBe(false);
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    await shootAtBothWidths(page, 'answer-shapes-table-streaming');
    replay.release();
    // Half of its delimiter row: still the table, already aligned.
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(() => markdown.locator('th').first().evaluate((th) => getComputedStyle(th).textAlign)).toBe('left');
    expect(await rawPipes()).toBe(false);
    replay.release();
    await waitIdle(page);
    expect(await headers()).toEqual(['Model', 'Size', 'Speed']);
    expect(await markdown.locator('td').allInnerTexts()).toEqual(['Qwen', '7B', 'fast']);
  });

  it('shows a streaming table in a quote as a table from its header row, never as "> | a | b |" text', async () => {
    const lines = [{ content: 'As the guide says:\n\n> | Model | Size |' }, { content: '\n> |:--' }, { content: '-|---|\n> | Qwen | 7B |\n' }];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, [1, 2]));
    const { page, replay } = s;
    await send(page, 'Quote the guide');
    const quote = assistant(page).locator('.markdown blockquote');
    const headers = () => quote.locator('th').allInnerTexts();
    const rawPipes = () => assistant(page).locator('.markdown').evaluate((el) => [...el.querySelectorAll('p')].some((p) => p.textContent?.includes('|')));
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(headers).toEqual(['Model', 'Size']);
    expect(await rawPipes()).toBe(false);
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    await shootAtBothWidths(page, 'answer-shapes-quoted-table-streaming');
    replay.release();
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(() => quote.locator('th').first().evaluate((th) => getComputedStyle(th).textAlign)).toBe('left');
    expect(await rawPipes()).toBe(false);
    replay.release();
    await waitIdle(page);
    expect(await headers()).toEqual(['Model', 'Size']);
    expect(await quote.locator('td').allInnerTexts()).toEqual(['Qwen', '7B']);
  });

  it('draws a long code block while it streams highlighted and whole, and as the same block once finished', async () => {
    const code = Array.from({ length: 80 }, (_, i) => (i % 20 === 0 ? `def step_${i}(items):\n    """Step ${i},\n    over lines."""` : `    total += items[${i}]  # ${i}`)).join('\n');
    const cut = code.indexOf('    total += items[50]');
    const lines = [{ content: `Here is the file:\n\n\`\`\`python\n${code.slice(0, cut)}    total += ite` }, { content: `${code.slice(cut + 16)}\n\`\`\`\n\nDone.` }];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, 1));
    const { page, replay } = s;
    await send(page, 'Write the file');
    await expect.poll(() => replay.held).toBe(1);
    const block = assistant(page).locator('pre.code-block');
    // Held mid-line, inside the code block: every line so far shows, coloured, the docstrings as strings.
    await expect.poll(() => block.locator('code').innerText()).toBe(`${code.slice(0, cut)}    total += ite`);
    expect(await block.locator('.hljs-keyword').count()).toBe(3);
    expect(await block.locator('.hljs-string').count()).toBe(3);
    expect(await block.locator('.code-head span').innerText()).toBe('python');
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    await shootAtBothWidths(page, 'answer-shapes-code-streaming', 'pre.code-block');
    replay.release();
    await waitIdle(page);
    expect(await block.locator('code').innerText()).toBe(`${code}\n`);
    expect(await block.locator('.hljs-keyword').count()).toBe(4);
    expect(await block.locator('.hljs-string').count()).toBe(4);
    await assistant(page).locator('p:has-text("Done.")').waitFor();
  });

  it('streams a code block in a list item and in a quote at the cost of its new lines: the list is not set again, and ends as the finished answer draws it', async () => {
    const code = Array.from({ length: 40 }, (_, i) => (i % 20 === 0 ? `def step_${i}(items):\n    """Step ${i}."""` : `    total += items[${i}]  # ${i}`))
      .join('\n')
      .split('\n');
    const indented = (lines: string[], lead: string) => lines.map((l) => `${lead}${l}`).join('\n');
    const lines = [
      { content: `Do this:\n\n1. Install it:\n   \`\`\`bash\n   pip install x\n   \`\`\`\n2. Write the file:\n   \`\`\`python\n${indented(code.slice(0, 20), '   ')}\n   total +` },
      { content: `= 1\n${indented(code.slice(20), '   ')}\n   tot` },
      { content: `al = 0\n   \`\`\`\n3. Run it.\n\nAs the docs say:\n\n> \`\`\`python\n${indented(code.slice(0, 10), '> ')}\n` },
      { content: `${indented(code.slice(10), '> ')}\n> \`\`\`\n\nDone.` },
    ];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, [1, 2, 3]));
    const { page, replay } = s;
    await send(page, 'Write the steps');
    await expect.poll(() => replay.held).toBe(1);
    const markdown = assistant(page).locator('.markdown');
    const step = markdown.locator('ol > li').nth(1);
    // What Copy copies.
    const codeOf = (where: typeof step) => where.locator('pre.code-block code').textContent();
    const written = code.slice(0, 20).join('\n');
    await expect.poll(() => codeOf(step)).toBe(`${written}\ntotal +`);
    expect(await step.locator('.hljs-keyword').count()).toBe(1);
    // The list item's element, marked: drawn whole at each token, the list was made anew.
    await step.evaluate((li) => ((li as HTMLElement & { kept?: boolean }).kept = true));
    await shootAtBothWidths(page, 'answer-shapes-list-code-streaming', '.markdown ol');
    replay.release();
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(() => codeOf(step)).toBe(`${written}\ntotal += 1\n${code.slice(20).join('\n')}\ntot`);
    expect(await step.evaluate((li) => (li as HTMLElement & { kept?: boolean }).kept)).toBe(true);
    expect(await step.locator('.hljs-keyword').count()).toBe(2);
    replay.release();
    await expect.poll(() => replay.held).toBe(1);
    const quote = markdown.locator('blockquote');
    // The chunk being written stops at the newline that ends the text (split-blocks.ts): its code has no newline yet.
    await expect.poll(() => codeOf(quote)).toBe(code.slice(0, 10).join('\n'));
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    replay.release();
    await waitIdle(page);
    await markdown.locator('p:has-text("Done.")').waitFor();
    expect(await codeOf(step)).toBe(`${written}\ntotal += 1\n${code.slice(20).join('\n')}\ntotal = 0\n`);
    expect(await codeOf(quote)).toBe(`${code.join('\n')}\n`);
    expect(await quote.locator('.hljs-keyword').count()).toBe(2);
  });

  it('streams a code block in a quote in a list item at the cost of its new lines: the quote is not set again', async () => {
    const code = Array.from({ length: 30 }, (_, i) => (i % 15 === 0 ? `def step_${i}(items):` : `    total += items[${i}]  # ${i}`));
    const quoted = (lines: string[]) => lines.map((l) => `   > ${l}`).join('\n');
    const lines = [
      { content: `Check the file first:\n\n1. It should read:\n   > \`\`\`python\n${quoted(code.slice(0, 15))}\n   > total +` },
      { content: `= 1\n${quoted(code.slice(15))}\n   > tot` },
      { content: `al = 0\n   > \`\`\`\n2. Run it.\n\nDone.` },
    ];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, [1, 2]));
    const { page, replay } = s;
    await send(page, 'Check it');
    await expect.poll(() => replay.held).toBe(1);
    const quote = assistant(page).locator('.markdown ol > li blockquote');
    const codeOf = () => quote.locator('pre.code-block code').textContent();
    await expect.poll(codeOf).toBe(`${code.slice(0, 15).join('\n')}\ntotal +`);
    // The quote's element, marked: drawn whole at each token (before), the list and its quote were made anew.
    await quote.evaluate((q) => ((q as HTMLElement & { kept?: boolean }).kept = true));
    replay.release();
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(codeOf).toBe(`${code.slice(0, 15).join('\n')}\ntotal += 1\n${code.slice(15).join('\n')}\ntot`);
    expect(await quote.evaluate((q) => (q as HTMLElement & { kept?: boolean }).kept)).toBe(true);
    expect(await quote.locator('.hljs-keyword').count()).toBe(2);
    replay.release();
    await waitIdle(page);
    await assistant(page).locator('p:has-text("Done.")').waitFor();
    expect(await codeOf()).toBe(`${code.slice(0, 15).join('\n')}\ntotal += 1\n${code.slice(15).join('\n')}\ntotal = 0\n`);
  });

  it('folds <details><summary> into a collapsible box whose content is markdown, and keeps an attribute-laden one as text', async () => {
    const answer = 'Here is the fix.\n\n<details>\n<summary>Full <b>file</b></summary>\n\n```kt\nfun main() { println("hi") }\n```\n\n- checked\n\n</details>\n\n<details ontoggle=alert(1)>\n<summary>x</summary>\n</details>\n\nDone.';
    s = await startUi(chatRoutes(ollamaLines([{ content: answer }]), 5));
    const { page } = s;
    await send(page, 'Fix it');
    await waitIdle(page);
    const fold = assistant(page).locator('details');
    expect(await fold.count()).toBe(1);
    expect(await fold.locator('summary').innerText()).toBe('Full file');
    expect(await fold.locator('pre').isVisible()).toBe(false);
    await shootAtBothWidths(page, 'answer-shapes-details-closed');
    await fold.locator('summary').click();
    await expect.poll(() => fold.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    expect(await fold.locator('pre').isVisible()).toBe(true);
    await expect.poll(() => fold.locator('pre .hljs-keyword').count()).toBeGreaterThan(0);
    expect(await fold.locator('li').innerText()).toBe('checked');
    // The other one had an attribute: text, and no handler anywhere.
    expect(await assistant(page).locator('.markdown').innerText()).toContain('<details ontoggle=alert(1)>');
    expect(await page.locator('[ontoggle]').count()).toBe(0);
    // Open stays open: the answer's HTML is not drawn again (finished chunks are cached).
    await page.waitForFunction(() => document.getAnimations().length === 0);
    expect(await fold.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    await shootAtBothWidths(page, 'answer-shapes-details-open');
  });

  it('says on a closed fold that the answer is still writing into it, and nothing once the fold is done', async () => {
    const lines = [
      { content: 'The whole file:\n\n<details>\n<summary>main.py</summary>\n\n```py\nimport sys\n' },
      { content: 'print(sys.argv)\n```\n\n</details>\n\nNow run it' },
      { content: ' with `python main.py`.' },
    ];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, [1, 2]));
    const { page, replay } = s;
    await send(page, 'Write main.py');
    const summary = assistant(page).locator('details > summary');
    const sign = () => summary.evaluate((el) => getComputedStyle(el, '::after').content);
    await expect.poll(() => replay.held).toBe(1);
    // Held while the code streams into the closed fold: its summary says so.
    await expect.poll(sign).toContain('writing');
    expect(await assistant(page).locator('details').evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    await shootAtBothWidths(page, 'answer-shapes-details-writing');
    replay.release();
    // The fold is closed in the text while the answer goes on: done, no sign.
    await expect.poll(() => replay.held).toBe(1);
    await expect.poll(sign).toBe('none');
    expect(await assistant(page).getAttribute('data-status')).toBe('streaming');
    replay.release();
    await waitIdle(page);
    expect(await sign()).toBe('none');
    expect(await summary.innerText()).toBe('main.py');
  });

  it('keeps a fold the reader opened while the answer streams open through the next tokens and after', async () => {
    const lines = [{ content: 'Intro.\n\n<details>\n<summary>Steps</summary>\n\nStep one.\n' }, { content: 'Step two.\n\n</details>\n\nAfter the fold.\n\nMore text.' }];
    s = await startUi(chatRoutes(ollamaLines(lines), 5, 1));
    const { page, replay } = s;
    await send(page, 'Show the steps');
    await expect.poll(() => replay.held).toBe(1);
    const fold = assistant(page).locator('details');
    await fold.locator('summary').click();
    await expect.poll(() => fold.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    // What the fold holds so far shows, while it is still being written.
    expect(await fold.locator('p:has-text("Step one.")').isVisible()).toBe(true);
    replay.release();
    await waitIdle(page);
    await assistant(page).locator('p:has-text("More text.")').waitFor();
    // The fold's chunk was drawn again (more text in it) and then finished (mounted in its group): still open.
    expect(await fold.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    expect(await fold.locator('p:has-text("Step two.")').isVisible()).toBe(true);
  });
});
