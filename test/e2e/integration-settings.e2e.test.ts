/**
 * Settings and navigation gaps, as a user meets them: the Models button sits in the sidebar (not over the chat)
 * and the models screen opens and closes by keyboard; connections are added (key never shown back), tested,
 * made active (the picker then lists that server's models) and removed; new chats start with the default model.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPage } from './helpers/browser';
import { chatRoutes, modelOption, ollamaLines, pickerValues, startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const V1_MODELS = '{"object":"list","data":[{"id":"qwen2.5-coder-7b","object":"model"},{"id":"phi-4","object":"model"}]}';

describe('sidebar and settings', () => {
  it('puts Models in the sidebar beside Settings, clear of the chat, and opens and closes it by keyboard', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    const button = page.locator('nav.sidebar').getByTestId('models-open');
    await button.waitFor();
    const box = await button.boundingBox();
    const main = await page.locator('main.main').boundingBox();
    expect(box && main && box.x + box.width <= main.x).toBe(true);

    await page.getByTestId('composer-input').focus();
    await page.keyboard.press('Control+Shift+M');
    await page.getByTestId('models-screen').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('models-close');
    await page.keyboard.press('Escape');
    await page.getByTestId('models-screen').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('models-open');
    await page.keyboard.press('Enter');
    await page.getByTestId('models-screen').waitFor();
  });

  // Resilience audit R7: the Settings dialog saved every field it shows, as the tab last read them: a tab open
  // since before another tab changed the models folder put the old folder back when it saved only a new theme.
  // The banner of an empty models folder offered Retry (the folder is watched: it changed nothing) and Settings,
  // not the screen where a model is added.
  it('says an empty models folder with a way to Models, and no Retry', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    await page.getByTestId('settings-open').click();
    const item = page.locator('[data-testid="connection-item"][data-kind="builtin"]');
    await item.getByTestId('connection-use').click();
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    const banner = page.getByTestId('models-error');
    await expect.poll(() => banner.locator('.banner-text').textContent()).toBe('No GGUF models yet: add or download one in Models (or put a .gguf file in the models folder).');
    expect(await banner.getByTestId('banner-retry').count()).toBe(0);
    await banner.getByTestId('banner-open-models').click();
    await page.getByTestId('models-screen').waitFor();
  });

  it('saves only what was changed in the dialog: a tab opened earlier does not undo another tab\'s settings', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page, browser, serve, dataDir } = s;
    const other = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    try {
      await other.goto(serve.url);
      await modelOption(other, 'llama3.2:3b').waitFor({ state: 'attached' });
      await page.getByTestId('settings-open').click();
      // A folder that is there: Settings refuses one that is not (settings audit #7).
      const folder = join(dataDir, 'srv-models');
      mkdirSync(folder);
      await page.getByTestId('models-folder').fill(folder);
      await page.getByTestId('settings-save').click();
      await page.getByTestId('settings-save').waitFor({ state: 'detached' });
      // The other tab changes the theme only.
      await other.getByTestId('settings-open').click();
      await other.getByTestId('settings-theme-dark').check();
      await other.getByTestId('settings-save').click();
      await other.getByTestId('settings-save').waitFor({ state: 'detached' });
      const saved = await page.evaluate(() => window.firebrand.settings.get({}));
      expect(saved).toMatchObject({ theme: 'dark', modelsDir: folder });
    } finally {
      await other.close();
    }
  });

  // Settings audit #1 and #7: a value main refused on Save showed nothing in the dialog (the refusal went to the banner
  // behind the modal, whose Retry sent the same value again), and a models folder that is a file, or not there, was
  // taken: a file failed every list with "Something went wrong inside Firebrand", a typo became an empty folder.
  it('says a value main refuses on Save in the dialog, with no banner; a models folder must be a folder that is there', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page, dataDir } = s;
    const alert = page.getByTestId('settings-dialog').locator('.modal-foot [role="alert"]');
    await page.getByTestId('settings-open').click();
    await page.getByTestId('builtin-idle-minutes').fill('20000');
    await page.getByTestId('settings-save').click();
    await expect.poll(() => alert.textContent()).toBe('The number of idle minutes before a built-in model is unloaded is out of range: it must be at most 10,080.');
    expect(await page.getByTestId('notice').count()).toBe(0);
    await page.getByTestId('builtin-idle-minutes').fill('30');

    const file = join(dataDir, 'hostname');
    writeFileSync(file, 'box\n');
    await page.getByTestId('models-folder').fill(file);
    await page.getByTestId('settings-save').click();
    await expect.poll(() => alert.textContent()).toBe(`${file} is a file, not a folder: choose the folder that holds your .gguf files.`);
    const typo = join(dataDir, 'modles');
    await page.getByTestId('models-folder').fill(typo);
    await page.getByTestId('settings-save').click();
    await expect.poll(() => alert.textContent()).toBe(`There is no folder at ${typo}. Check the spelling, or create the folder first, then save again.`);
    expect(existsSync(typo)).toBe(false);
    expect(await page.getByTestId('notice').count()).toBe(0);

    const folder = join(dataDir, 'my-models');
    mkdirSync(folder);
    await page.getByTestId('models-folder').fill(folder);
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => window.firebrand.settings.get({}))).toMatchObject({ modelsDir: folder, builtinIdleMinutes: 30 });
  });

  // Settings audit #9: a default model of another connection read "the model used last", and picking that to clear
  // it changed nothing.
  it('shows a default model the active connection does not offer as what it is, and clears it', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, replay } = s;
    const select = page.getByTestId('settings-default-model');
    const shown = () => select.evaluate((e: HTMLSelectElement) => e.selectedOptions[0]?.textContent ?? '');
    await page.getByTestId('settings-open').click();
    await page.getByTestId('connection-add-kind').selectOption('openai-compatible');
    await page.getByTestId('connection-add-label').fill('LM Studio');
    await page.getByTestId('connection-add-url').fill(replay.url);
    await page.getByTestId('connection-add').click();
    const lmStudio = page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
    await lmStudio.getByTestId('connection-use').click();
    await select.locator('option[value="phi-4"]').waitFor({ state: 'attached' });
    await select.selectOption('phi-4');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });

    // Ollama made active again: the saved default is still phi-4, and says so.
    await page.getByTestId('settings-open').click();
    await page.locator('[data-testid="connection-item"][data-connection-id="ollama"]').getByTestId('connection-use').click();
    await expect.poll(() => pickerValues(page)).not.toContain('phi-4');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('settings-open').click();
    await expect.poll(shown).toBe('phi-4 (not offered by Ollama, the active connection)');
    await select.selectOption('');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    expect((await page.evaluate(() => window.firebrand.settings.get({}))).defaultChatModel).toBeNull();
  });

  // A theme picked in one tab did not carry to another tab of serve mode until that one was reloaded (left over from
  // the resilience audit): main now tells every tab the settings as saved.
  it('shows a theme saved in one tab at once in another, whose dialog then opens on what is saved', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page, browser, serve } = s;
    const other = await openPage(browser, { viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    try {
      await other.goto(serve.url);
      await modelOption(other, 'llama3.2:3b').waitFor({ state: 'attached' });
      const theme = (p: typeof page) => p.evaluate(() => document.documentElement.dataset.theme);
      expect(await theme(other)).toBe('light');
      await page.getByTestId('settings-open').click();
      await page.getByTestId('settings-theme-dark').check();
      await page.getByTestId('settings-save').click();
      await page.getByTestId('settings-save').waitFor({ state: 'detached' });
      await expect.poll(() => theme(other)).toBe('dark');
      await other.getByTestId('settings-open').click();
      expect(await other.getByTestId('settings-theme-dark').isChecked()).toBe(true);
    } finally {
      await other.close();
    }
  });

  // With the settings following across tabs, the other tab learns of a connection it had never listed.
  it('lists a connection added and made active in another tab under its name, with its models', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, browser, serve, replay } = s;
    const other = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    try {
      await other.goto(serve.url);
      await modelOption(other, 'llama3.2:3b').waitFor({ state: 'attached' });
      await page.getByTestId('settings-open').click();
      await page.getByTestId('connection-add-kind').selectOption('openai-compatible');
      await page.getByTestId('connection-add-label').fill('LM Studio');
      await page.getByTestId('connection-add-url').fill(replay.url);
      await page.getByTestId('connection-add').click();
      const item = page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
      await item.getByTestId('connection-use').click();
      await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
      // The other tab, never reloaded: the new connection's models, under its name.
      await expect.poll(() => pickerValues(other)).toEqual(['qwen2.5-coder-7b', 'phi-4']);
      await expect.poll(() => other.locator('.model-group-label').allTextContents()).toEqual(['LM Studio']);
    } finally {
      await other.close();
    }
  });

  it('adds, tests, uses and removes a connection; its key is never shown back', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, replay } = s;
    await page.getByTestId('settings-open').click();
    // Ollama and the built-in engine are always there.
    await expect.poll(() => page.getByTestId('connection-item').count()).toBe(2);
    await page.getByTestId('connection-add-kind').selectOption('openai-compatible');
    await page.getByTestId('connection-add-label').fill('LM Studio');
    await page.getByTestId('connection-add-url').fill(replay.url);
    await page.getByTestId('connection-add-key').fill('sk-do-not-show');
    await page.getByTestId('connection-add').click();
    const item = page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
    await item.waitFor();
    expect(await item.getByTestId('connection-key-status').textContent()).toBe('key saved');
    expect(await page.getByTestId('connections').innerText()).not.toContain('sk-do-not-show');
    expect(await page.getByTestId('connection-add-key').inputValue()).toBe('');

    await item.getByTestId('connection-test').click();
    await expect.poll(() => item.getByTestId('connection-test-result').textContent()).toContain('2 models');
    expect(await item.getByTestId('connection-test-result').getAttribute('data-ok')).toBe('true');
    expect(replay.requests.find((r) => r.path === '/v1/models')?.headers['authorization']).toBe('Bearer sk-do-not-show');

    // The radio follows the saved setting, so it turns on after main confirms: click, then wait for it.
    await item.getByTestId('connection-use').click();
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await expect.poll(() => pickerValues(page)).toEqual(['qwen2.5-coder-7b', 'phi-4']);

    await item.getByTestId('connection-remove').click();
    await expect.poll(() => page.getByTestId('connection-item').count()).toBe(2);
    await expect.poll(() => pickerValues(page)).toContain('llama3.2:3b');
  });

  // Real-engines audit D1: "Cannot reach llama-server at …: change its address in Settings", but only the built-in
  // Ollama's address could be changed there; a connection added with a wrong address had to be removed and added again.
  it('edits a saved connection\'s address and key in place; the key of the old address is dropped, and said so', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, replay } = s;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('connection-add-kind').selectOption('openai-compatible');
    await page.getByTestId('connection-add-label').fill('LM Studio');
    await page.getByTestId('connection-add-url').fill('http://127.0.0.1:1');
    await page.getByTestId('connection-add-key').fill('sk-old');
    await page.getByTestId('connection-add').click();
    const item = page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
    await item.getByTestId('connection-use').click();
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await page.getByTestId('models-error').waitFor();

    // Escape leaves the editor, not Settings; nothing is saved.
    await item.getByTestId('connection-edit-open').click();
    await item.getByTestId('connection-edit-url').fill(replay.url);
    await page.keyboard.press('Escape');
    await item.getByTestId('connection-edit').waitFor({ state: 'detached' });
    expect(await item.getByTestId('connection-url').textContent()).toBe('http://127.0.0.1:1');
    expect(await page.getByTestId('settings-dialog').isVisible()).toBe(true);

    await item.getByTestId('connection-edit-open').click();
    await item.getByTestId('connection-edit-label').fill('LM Studio on this box');
    await item.getByTestId('connection-edit-url').fill(replay.url);
    await item.getByTestId('connection-edit-save').click();
    await expect.poll(() => item.getByTestId('connection-url').textContent()).toBe(replay.url);
    expect(await item.locator('strong').textContent()).toBe('LM Studio on this box');
    expect(await item.getByTestId('connection-key-status').textContent()).toBe('no key');
    expect(await page.getByTestId('connection-note').textContent()).toContain('The saved API key was removed');
    // The connection in use lists the server's models at once, and the failure is gone.
    await expect.poll(() => pickerValues(page)).toEqual(['qwen2.5-coder-7b', 'phi-4']);
    await page.getByTestId('models-error').waitFor({ state: 'detached' });

    await item.getByTestId('connection-edit-open').click();
    await item.getByTestId('connection-edit-key').fill('sk-new');
    await item.getByTestId('connection-edit-save').click();
    await expect.poll(() => item.getByTestId('connection-key-status').textContent()).toBe('key saved');
    expect(await page.getByTestId('connections').innerText()).not.toContain('sk-new');
    await item.getByTestId('connection-test').click();
    await expect.poll(() => item.getByTestId('connection-test-result').textContent()).toContain('2 models');
    expect(replay.requests.filter((r) => r.path === '/v1/models').at(-1)?.headers['authorization']).toBe('Bearer sk-new');

    // A typed address that is not one is refused in the editor, and the row keeps its saved address.
    await item.getByTestId('connection-edit-open').click();
    await item.getByTestId('connection-edit-url').fill('lmstudio.local');
    await item.getByTestId('connection-edit-save').click();
    expect(await item.getByTestId('connection-edit-error').textContent()).toContain('http://');
    await item.getByTestId('connection-edit-cancel').click();
    expect(await item.getByTestId('connection-url').textContent()).toBe(replay.url);
  });

  it('saves an address typed with /v1 without it, says so, and the test then reaches /v1/models (models audit #7)', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, replay } = s;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('connection-add-kind').selectOption('openai-compatible');
    await page.getByTestId('connection-add-url').fill(`${replay.url}/v1`);
    await page.getByTestId('connection-add').click();
    await expect.poll(() => page.getByTestId('connection-note').textContent()).toBe(`Saved as ${replay.url}: Firebrand adds /v1/… to the address itself, so the /v1 at its end was left out.`);
    const item = page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
    await item.getByTestId('connection-test').click();
    await expect.poll(() => item.getByTestId('connection-test-result').textContent()).toContain('2 models');
    expect(replay.requests.some((r) => r.path === '/v1/v1/models')).toBe(false);
  });

  it('shows the exact failure when a connection test fails', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page, replay } = s;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('connection-add-kind').selectOption('llama-server');
    await page.getByTestId('connection-add-url').fill(`${replay.url}/nothing-here`);
    await page.getByTestId('connection-add').click();
    const item = page.locator('[data-testid="connection-item"][data-kind="llama-server"]');
    await item.getByTestId('connection-test').click();
    await expect.poll(() => item.getByTestId('connection-test-result').textContent()).toContain('/health');
    expect(await item.getByTestId('connection-test-result').getAttribute('data-ok')).toBe('false');
  });

  it('starts new chats with the default model chosen in Settings', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    await expect.poll(() => page.getByTestId('model-picker').inputValue()).toBe('llama3.2:3b');
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-default-model').selectOption('qwen3:8b');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('new-chat').click();
    await expect.poll(() => page.getByTestId('model-picker').inputValue()).toBe('qwen3:8b');
    await page.reload();
    await expect.poll(() => page.getByTestId('model-picker').inputValue()).toBe('qwen3:8b');
  });
});
