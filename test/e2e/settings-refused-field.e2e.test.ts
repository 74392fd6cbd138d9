/**
 * A value refused on Save in Settings (by the dialog or by main) was said only in the footer, beside Save: the field
 * itself was not marked, so a screen reader on the field heard nothing wrong with it, and the focus stayed on Save.
 * Now the field is invalid (aria-invalid), the message is its accessible description (aria-describedby), and it
 * takes the focus. Checked through Chromium's accessibility tree, as a screen reader reads it.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRoutes, ollamaLines, startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

/** What a screen reader is told of the field with this test id: whether it is invalid, and its description. */
async function spoken(page: Page, testId: string): Promise<{ invalid: boolean; description: string }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = (await cdp.send('Runtime.evaluate', { expression: `document.querySelector('[data-testid="${testId}"]')` })) as { result: { objectId?: string } };
    if (!result.objectId) throw new Error(`no field ${testId}`);
    const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false })) as {
      nodes: { description?: { value?: string }; properties?: { name: string; value: { value?: unknown } }[] }[];
    };
    const node = nodes[0];
    const invalid = node?.properties?.find((p) => p.name === 'invalid')?.value.value;
    return { invalid: invalid !== undefined && invalid !== 'false', description: node?.description?.value ?? '' };
  } finally {
    await cdp.detach();
  }
}

/** Whether the field around this input (its name above it) lies within what the dialog's scrolled body shows. */
const nameShown = (page: Page, testId: string) =>
  page.evaluate((id) => {
    const field = document.querySelector(`[data-testid="${id}"]`)?.closest('.field')?.getBoundingClientRect();
    const body = document.querySelector('[data-testid="settings-dialog"] .modal-body')?.getBoundingClientRect();
    return field !== undefined && body !== undefined && field.top >= body.top - 0.5 && field.bottom <= body.bottom + 0.5;
  }, testId);

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

describe('a field refused on Save in Settings', () => {
  it('is marked invalid, described by its message and focused, whether the dialog or main refused it', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page, dataDir } = s;
    const message = page.getByTestId('settings-dialog').locator('.modal-foot [role="alert"]');
    await page.getByTestId('settings-open').click();
    await page.getByTestId('builtin-idle-minutes').waitFor();
    expect(await spoken(page, 'builtin-idle-minutes')).toEqual({ invalid: false, description: '' });

    // Refused by the dialog: an emptied idle-minutes field.
    await page.getByTestId('builtin-idle-minutes').fill('');
    await page.getByTestId('settings-save').click();
    const empty = 'Idle minutes is empty: enter how many idle minutes before a built-in model is unloaded, such as 10 (0 keeps models loaded).';
    await expect.poll(() => message.textContent()).toBe(empty);
    await expect.poll(() => focusedTestId(page)).toBe('builtin-idle-minutes');
    expect(await spoken(page, 'builtin-idle-minutes')).toEqual({ invalid: true, description: empty });

    // Refused by main: too many idle minutes (the schema's limit).
    await page.getByTestId('builtin-idle-minutes').fill('20000');
    await page.getByTestId('settings-save').click();
    const tooMany = 'The number of idle minutes before a built-in model is unloaded is out of range: it must be at most 10,080.';
    await expect.poll(() => message.textContent()).toBe(tooMany);
    await expect.poll(() => focusedTestId(page)).toBe('builtin-idle-minutes');
    expect(await spoken(page, 'builtin-idle-minutes')).toEqual({ invalid: true, description: tooMany });

    // A bad GPU memory: that field, and the idle minutes are no longer marked.
    await page.getByTestId('builtin-idle-minutes').fill('30');
    await page.getByTestId('gpu-override').fill('lots');
    await page.getByTestId('settings-save').click();
    const gpu = 'GPU memory is a number of GiB from 0.25 up, such as 24 (empty: find it out).';
    await expect.poll(() => message.textContent()).toBe(gpu);
    await expect.poll(() => focusedTestId(page)).toBe('gpu-override');
    expect(await spoken(page, 'gpu-override')).toMatchObject({ invalid: true, description: gpu });
    expect(await spoken(page, 'builtin-idle-minutes')).toEqual({ invalid: false, description: '' });

    // Refused by main with two fields changed (idle minutes and the folder): the folder is the one marked.
    await page.getByTestId('gpu-override').fill('');
    const typo = join(dataDir, 'modles');
    await page.getByTestId('models-folder').fill(typo);
    await page.getByTestId('settings-save').click();
    const noFolder = `There is no folder at ${typo}. Check the spelling, or create the folder first, then save again.`;
    await expect.poll(() => message.textContent()).toBe(noFolder);
    await expect.poll(() => focusedTestId(page)).toBe('models-folder');
    expect(await spoken(page, 'models-folder')).toEqual({ invalid: true, description: noFolder });
    expect(await spoken(page, 'gpu-override')).toMatchObject({ invalid: false });
    expect(await spoken(page, 'builtin-idle-minutes')).toEqual({ invalid: false, description: '' });
  });

  // Main's refusal names its setting: the field marked is that one, not the one its words seem to name. Here the
  // address (a port past 65535, which the dialog lets through) ends with the folder typed beside it, and the words,
  // "“http://…:99999/…/data” is not a valid address.", named the folder: it was marked and focused, not the address.
  it('is the setting main names when two fields changed, though its words name the other', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page, dataDir } = s;
    const message = page.getByTestId('settings-dialog').locator('.modal-foot [role="alert"]');
    await page.getByTestId('settings-open').click();
    await page.getByTestId('models-folder').waitFor();
    const address = `http://127.0.0.1:99999${dataDir}`;
    await page.getByTestId('models-folder').fill(dataDir);
    await page.getByTestId('settings-ollama-url').fill(address);
    await page.getByTestId('settings-save').click();
    const bad = `“${address}” is not a valid address. Use a full URL such as http://127.0.0.1:11434.`;
    await expect.poll(() => message.textContent()).toBe(bad);
    await expect.poll(() => focusedTestId(page)).toBe('settings-ollama-url');
    expect(await spoken(page, 'settings-ollama-url')).toEqual({ invalid: true, description: bad });
    expect(await spoken(page, 'models-folder')).toEqual({ invalid: false, description: '' });
    // Shown whole, its name too: the focus scrolled the dialog (Save clicked below) to the input only, the words
    // "Ollama address" cut off above it.
    await expect.poll(() => nameShown(page, 'settings-ollama-url')).toBe(true);
    // What was typed is still there, to be put right.
    await expect.poll(() => page.getByTestId('settings-ollama-url').inputValue()).toBe(address);
    await expect.poll(() => page.getByTestId('models-folder').inputValue()).toBe(dataDir);
  });
});
