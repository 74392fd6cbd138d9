/**
 * Closing notes s5, "Cancel does not undo a connection switch": a connection picked in Settings is in use at once
 * (the picker lists its models as it is picked), and Cancel left it in use, though Cancel says nothing changes. Now
 * Cancel, × and Discard put back the connection in use as Settings opened, whatever was done in between (an editor
 * opened and cancelled on the way); Escape asks first, as for any other unsaved change; Save keeps the pick.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, pickerValues, startUi, stopUi, type UiSession } from './helpers/ui-session';

const V1_MODELS = '{"object":"list","data":[{"id":"qwen2.5-coder-7b","object":"model"},{"id":"phi-4","object":"model"}]}';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const dialog = (page: Page) => page.getByTestId('settings-dialog');
const lmStudio = (page: Page) => page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
const activeId = (page: Page) => page.evaluate(async () => (await window.firebrand.settings.get({})).activeConnectionId ?? 'ollama');

/** Picks LM Studio (added by the test) and waits until its models are the picker's. */
/** Settings opened, and an OpenAI-compatible connection "LM Studio" at `url` added (saved at once, not picked). */
async function addLmStudio(page: Page, url: string): Promise<void> {
  await page.getByTestId('settings-open').click();
  await page.getByTestId('connection-add-kind').selectOption('openai-compatible');
  await page.getByTestId('connection-add-label').fill('LM Studio');
  await page.getByTestId('connection-add-url').fill(url);
  await page.getByTestId('connection-add').click();
}

async function pickLmStudio(page: Page): Promise<void> {
  await lmStudio(page).getByTestId('connection-use').click();
  await expect.poll(() => lmStudio(page).getByTestId('connection-use').isChecked()).toBe(true);
  await expect.poll(() => pickerValues(page)).toEqual(['qwen2.5-coder-7b', 'phi-4']);
}

describe('a connection picked in Settings, then Cancel', () => {
  it('is undone by Cancel, × and Discard (Escape asks first), and kept by Save', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, replay } = s;
    await addLmStudio(page, replay.url);
    await lmStudio(page).waitFor();
    await page.getByTestId('settings-save').click();
    await dialog(page).waitFor({ state: 'detached' });

    // Picked, its editor opened and cancelled on the way, then Settings' Cancel: Ollama is in use again.
    await page.getByTestId('settings-open').click();
    await pickLmStudio(page);
    await lmStudio(page).getByTestId('connection-edit-open').click();
    await lmStudio(page).getByTestId('connection-edit-cancel').click();
    await page.getByTestId('settings-cancel').click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(await activeId(page)).toBe('ollama');
    await expect.poll(() => pickerValues(page)).toContain('llama3.2:3b');

    // The close button says "without saving": the same.
    await page.getByTestId('settings-open').click();
    await pickLmStudio(page);
    await page.getByTestId('settings-close').click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(await activeId(page)).toBe('ollama');

    // Escape asks, as for any change not saved; Discard puts Ollama back.
    await page.getByTestId('settings-open').click();
    await pickLmStudio(page);
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-unsaved').waitFor();
    await page.getByTestId('settings-discard').click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(await activeId(page)).toBe('ollama');
    await expect.poll(() => pickerValues(page)).toContain('llama3.2:3b');

    // Picked and picked back: nothing to ask about, Escape closes.
    await page.getByTestId('settings-open').click();
    await pickLmStudio(page);
    await page.locator('[data-connection-id="ollama"]').getByTestId('connection-use').click();
    await expect.poll(() => activeId(page)).toBe('ollama');
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });

    // Save keeps it. The section says what Cancel does with a pick.
    await page.getByTestId('settings-open').click();
    await pickLmStudio(page);
    expect(await page.getByTestId('connections-at-once').textContent()).toContain('Cancel below goes back to the one in use before');
    await shootAtBothWidths(page, 'settings-cancel-switch', '[data-testid="connections-at-once"]');
    await page.getByTestId('settings-save').click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(await activeId(page)).not.toBe('ollama');
    expect(await pickerValues(page)).toEqual(['qwen2.5-coder-7b', 'phi-4']);
  });

  // Left with a pick not saved (a reload, the tab closed) past the browser's "Leave site?": the pick stayed in use,
  // though nothing was saved (settings polish #6). Leaving is Discard now.
  it('is undone when the page is left despite the unsaved-changes warning', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, replay } = s;
    await addLmStudio(page, replay.url);
    await pickLmStudio(page);
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.type());
      void d.accept();
    });
    await page.reload();
    expect(asked).toEqual(['beforeunload']);
    await expect.poll(() => activeId(page)).toBe('ollama');
    await expect.poll(() => pickerValues(page)).toContain('llama3.2:3b');
  });
});
