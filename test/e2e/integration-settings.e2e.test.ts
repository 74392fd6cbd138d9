/**
 * Settings and navigation gaps, as a user meets them: the Models button sits in the sidebar (not over the chat)
 * and the models screen opens and closes by keyboard; connections are added (key never shown back), tested,
 * made active (the picker then lists that server's models) and removed; new chats start with the default model.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { openPage } from './helpers/browser';
import { shootAtBothWidths } from './helpers/screenshots';
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
    // An emptied idle-minutes field was saved as 0, "never unload" (user-eyes pass): it is refused, and what is saved stays.
    const before = await page.evaluate(() => window.firebrand.settings.get({}));
    await page.getByTestId('builtin-idle-minutes').fill('');
    await page.getByTestId('settings-save').click();
    await expect.poll(() => alert.textContent()).toBe('Idle minutes is empty: enter how many idle minutes before a built-in model is unloaded, such as 10 (0 keeps models loaded).');
    expect(await page.getByTestId('settings-dialog').count()).toBe(1);
    expect((await page.evaluate(() => window.firebrand.settings.get({}))).builtinIdleMinutes).toBe(before.builtinIdleMinutes);
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

  // At a phone's width a refusal that names a long path (no spaces to wrap at) ran out of the dialog to the left of
  // the screen: "There is no folder at /home/…" lost its start, the part that says what was wrong.
  it('wraps a refusal that names a long path inside the dialog at a phone’s width', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page, dataDir } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('settings-open').click();
    const typo = join(dataDir, 'models_for_the_big_gpu_box_in_the_garage', 'quantized_q4_k_m_and_q8_0', 'not_made_yet');
    await page.getByTestId('models-folder').fill(typo);
    await page.getByTestId('settings-save').click();
    const alert = page.getByTestId('settings-dialog').locator('.modal-foot [role="alert"]');
    await expect.poll(() => alert.textContent()).toBe(`There is no folder at ${typo}. Check the spelling, or create the folder first, then save again.`);
    const { inside, whole } = await alert.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const dialog = el.closest('[data-testid="settings-dialog"]')!.getBoundingClientRect();
      return { inside: box.left >= dialog.left && box.right <= dialog.right, whole: el.scrollWidth <= el.clientWidth };
    });
    expect(inside, 'the message lies inside the dialog').toBe(true);
    expect(whole, 'the message is not cut').toBe(true);
    await shootAtBothWidths(page, 'settings-refusal-long-path');
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
    // Save keeps the pick (Cancel would put LM Studio back in use).
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
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
    // Emptied once the add is answered, which may come a moment after the list shows the connection (a busy machine).
    await expect.poll(() => page.getByTestId('connection-add-key').inputValue()).toBe('');

    await item.getByTestId('connection-test').click();
    await expect.poll(() => item.getByTestId('connection-test-result').textContent()).toContain('2 models');
    expect(await item.getByTestId('connection-test-result').getAttribute('data-ok')).toBe('true');
    expect(replay.requests.find((r) => r.path === '/v1/models')?.headers['authorization']).toBe('Bearer sk-do-not-show');

    // The radio follows the saved setting, so it turns on after main confirms: click, then wait for it.
    await item.getByTestId('connection-use').click();
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await expect.poll(() => pickerValues(page)).toEqual(['qwen2.5-coder-7b', 'phi-4']);

    await item.getByTestId('connection-remove').click();
    await item.getByTestId('connection-remove-confirm').click();
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

    // Escape leaves the editor, not Settings (asking first, as the address was changed); nothing is saved.
    await item.getByTestId('connection-edit-open').click();
    await item.getByTestId('connection-edit-url').fill(replay.url);
    await page.keyboard.press('Escape');
    await item.getByTestId('connection-edit-discard').click();
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

  // An address typed as host:port (localhost:11434, 192.168.1.20:8080) was refused with "starts with http://", in
  // every form, though every local server speaks plain http: it is taken as http://, and shown so.
  it('takes an address typed without http:// as http://, in the add and edit forms and the Ollama field, and shows it so', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, replay } = s;
    const port = new URL(replay.url).port;
    await page.getByTestId('settings-open').click();
    await addConnection(page, 'openai-compatible', 'LM Studio', `127.0.0.1:${port}`);
    const item = page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
    await expect.poll(() => item.getByTestId('connection-url').textContent()).toBe(`http://127.0.0.1:${port}`);
    expect(await page.getByTestId('connection-note').textContent()).toBe(
      `Saved as http://127.0.0.1:${port}: an address typed without http:// or https:// is taken as http://, which local servers speak.`,
    );
    expect(await page.getByTestId('connection-error').count()).toBe(0);
    await item.getByTestId('connection-test').click();
    await expect.poll(() => item.getByTestId('connection-test-result').textContent()).toContain('2 models');

    await item.getByTestId('connection-edit-open').click();
    await item.getByTestId('connection-edit-url').fill(`localhost:${port}`);
    await item.getByTestId('connection-edit-save').click();
    await expect.poll(() => item.getByTestId('connection-url').textContent()).toBe(`http://localhost:${port}`);
    expect(await page.getByTestId('connection-note').textContent()).toContain(`Saved as http://localhost:${port}: an address typed without http://`);
    await shootAtBothWidths(page, 'connection-scheme-assumed', '[data-testid="connection-note"]');

    // The Ollama address: the note under its field says what will be saved as it is typed, and Save takes it.
    await page.getByTestId('settings-ollama-url').fill(`localhost:${port}`);
    await expect.poll(() => page.getByTestId('settings-ollama-url-note').textContent()).toBe(`Will be saved as http://localhost:${port}.`);
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    expect((await page.evaluate(() => window.firebrand.settings.get({}))).ollamaUrl).toBe(`http://localhost:${port}`);
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

  // Settings audit #3: each arrow key in the active-connection radios saved the next server as the one in use (and
  // switched the open chat's model); nothing said the section saves at once; Remove took the key with no question.
  it('moves among the connections by arrow keys without switching servers, picks one by Space, and asks before Remove', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }, { path: '/api/version', body: '{"version":"0.12.6"}' }]);
    const { page, replay } = s;
    await page.getByTestId('settings-open').click();
    expect(await page.getByTestId('connections-at-once').textContent()).toContain('Connections you add, edit or remove are saved at once');
    await addConnection(page, 'openai-compatible', 'LM Studio', replay.url, 'sk-1');
    const ollama = page.locator('[data-connection-id="ollama"]');
    const item = page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
    await item.waitFor();

    await ollama.getByTestId('connection-use').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => item.getByTestId('connection-use').evaluate((el) => el === document.activeElement)).toBe(true);
    // A round trip to main after the arrows: a switch they had saved would be back by then.
    await ollama.getByTestId('connection-test').click();
    await expect.poll(() => ollama.getByTestId('connection-test-result').textContent()).toContain('Ollama 0.12.6');
    expect(await ollama.getByTestId('connection-use').isChecked()).toBe(true);
    expect(await item.getByTestId('connection-use').isChecked()).toBe(false);
    await item.getByTestId('connection-use').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => item.getByTestId('connection-use').isChecked()).toBe(true);
    await expect.poll(() => pickerValues(page)).toEqual(['qwen2.5-coder-7b', 'phi-4']);

    // Remove asks, says the key goes too, and Keep keeps it with the focus back on Remove….
    await item.getByTestId('connection-remove').click();
    expect(await item.getByTestId('connection-remove-confirming').textContent()).toContain('Remove LM Studio? Its saved API key goes with it.');
    await expect.poll(() => focusedTestId(page)).toBe('connection-remove-keep');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('connection-remove');
    expect(await page.getByTestId('connection-item').count()).toBe(3);
    // Removed by keyboard: the focus goes to the row before it, not to the page (settings audit #6).
    await page.keyboard.press('Enter');
    await item.getByTestId('connection-remove-confirm').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('connection-item').count()).toBe(2);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-connection-id]')?.getAttribute('data-connection-id'))).toBe('builtin');
    expect(await focusedTestId(page)).toBe('connection-test');
  });

  // Settings audit #4, #6, #8: main's refusal in the editor showed only under the add form, out of view, and stayed
  // after Cancel; closing the editor dropped the focus to the page; a saved key could not be removed.
  it('shows a refused edit in the editor, clears it on Cancel, returns the focus to Edit, and removes a saved key', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, replay } = s;
    await page.getByTestId('settings-open').click();
    await addConnection(page, 'openai-compatible', 'LM Studio', replay.url, 'sk-1');
    const item = page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]');
    await expect.poll(() => item.getByTestId('connection-key-status').textContent()).toBe('key saved');

    await item.getByTestId('connection-edit-open').focus();
    await page.keyboard.press('Enter');
    await item.getByTestId('connection-edit-url').fill('http://127.0.0.1:99999');
    await page.keyboard.press('Enter');
    await expect.poll(() => item.getByTestId('connection-edit-error').textContent()).toContain('is not a valid address');
    expect(await page.getByTestId('connection-error').count()).toBe(0);
    await item.getByTestId('connection-edit-cancel').click();
    await item.getByTestId('connection-edit').waitFor({ state: 'detached' });
    expect(await page.getByTestId('connection-error').count()).toBe(0);
    await expect.poll(() => focusedTestId(page)).toBe('connection-edit-open');

    await page.keyboard.press('Enter');
    await item.getByTestId('connection-edit-remove-key').check();
    await item.getByTestId('connection-edit-label').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => item.getByTestId('connection-key-status').textContent()).toBe('no key');
    expect(await page.getByTestId('connection-note').textContent()).toBe('The saved API key was removed.');
    await expect.poll(() => focusedTestId(page)).toBe('connection-edit-open');
    await item.getByTestId('connection-test').click();
    await expect.poll(() => item.getByTestId('connection-test-result').textContent()).toContain('2 models');
    expect(replay.requests.filter((r) => r.path === '/v1/models').at(-1)?.headers['authorization']).toBeUndefined();
  });

  // Settings audit #5: a double-click on Add connection added it twice; the same server could be added again.
  it('adds a double-clicked connection once, and refuses the same server again, naming the saved one', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page, replay } = s;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('connection-add-kind').selectOption('llama-server');
    await page.getByTestId('connection-add-label').fill('Real llama');
    await page.getByTestId('connection-add-url').fill(replay.url);
    await page.getByTestId('connection-add').dblclick();
    await expect.poll(() => page.getByTestId('connection-item').count()).toBe(3);
    await expect.poll(() => page.getByTestId('connection-add').textContent()).toBe('Add connection');
    // One row and no refusal left showing: the button waits for its save (and main refuses a twin anyway).
    expect(await page.getByTestId('connection-error').count()).toBe(0);
    // An added connection empties the form, its address back to the kind's default.
    expect(await page.getByTestId('connection-add-url').inputValue()).toBe('http://127.0.0.1:8080');
    await page.getByTestId('connection-add-label').fill('Dbl');
    await page.getByTestId('connection-add-url').fill(replay.url);
    await page.getByTestId('connection-add').click();
    await expect.poll(() => page.getByTestId('connection-error').textContent()).toBe(`"Real llama" already connects to ${replay.url} as llama-server: edit that one instead.`);
    expect(await page.getByTestId('connection-item').count()).toBe(3);
  });

  // Settings audit #10, #6: Test connection said nothing for up to 10 s, dropped the keyboard focus by disabling
  // itself, and a server that never answered read "The operation was aborted due to timeout".
  it('says Testing… with the focus kept on the button, and a server that never answers in plain words', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
      const { page } = s;
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      await page.getByTestId('settings-open').click();
      await addConnection(page, 'llama-server', 'Silent', url);
      const item = page.locator('[data-testid="connection-item"][data-kind="llama-server"]');
      await item.getByTestId('connection-test').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => item.getByTestId('connection-test').textContent()).toBe('Testing…');
      expect(await item.getByTestId('connection-testing').textContent()).toContain(`Testing ${url}`);
      expect(await focusedTestId(page)).toBe('connection-test');
      // Named as the user named it, as the banner and an answer name a connection.
      await expect.poll(() => item.getByTestId('connection-test-result').textContent()).toBe('Silent did not answer within 10 s.');
      await shootAtBothWidths(page, 'connection-test-named', '[data-testid="connection-test-result"]');
      expect(await focusedTestId(page)).toBe('connection-test');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  // Settings audit #12: a long name with no spaces ran off the card and widened the dialog at 390 px.
  it('wraps a long connection name at a phone\'s width', async () => {
    s = await startUi([...chatRoutes(ollamaLines([{ content: 'Hi' }])), { path: '/v1/models', body: V1_MODELS }]);
    const { page, replay } = s;
    await page.getByTestId('settings-open').click();
    await addConnection(page, 'openai-compatible', 'N'.repeat(190), replay.url, 'sk-1');
    await page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]').waitFor();
    await shootAtBothWidths(page, 'settings-connections', '[data-testid="connection-item"][data-kind="openai-compatible"]');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.locator('.modal-body').evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
  });
});

async function addConnection(page: Page, kind: string, label: string, url: string, key?: string): Promise<void> {
  await page.getByTestId('connection-add-kind').selectOption(kind);
  await page.getByTestId('connection-add-label').fill(label);
  await page.getByTestId('connection-add-url').fill(url);
  if (key !== undefined) await page.getByTestId('connection-add-key').fill(key);
  await page.getByTestId('connection-add').click();
  await expect.poll(() => page.getByTestId('connection-add').textContent()).toBe('Add connection');
}

function focusedTestId(page: Page): Promise<string | null | undefined> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
}
