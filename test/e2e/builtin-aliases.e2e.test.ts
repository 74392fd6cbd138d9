/**
 * Aliases on the built-in engine, as round 10 used them in serve mode.
 *
 * Found in round 10's use of the Models screen on the built-in engine: the chosen alias's model file was deleted
 * (Models → Delete, here or in another tab). The picker marked the alias as unusable once opened, but it stayed
 * chosen and Send stayed enabled: the message was sent, and its answer was an error ("plain.gguf is not in the models
 * folder (…). Add it in Models, or pick another model."). Now the composer says why before anything is sent (the
 * picker's own words), Send waits, and the draft stays.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { startBuiltinUi, stopBuiltinUi, type BuiltinSession } from './helpers/builtin-session';
import { pickModel } from './helpers/picker';
import { shootAtBothWidths } from './helpers/screenshots';

let session: BuiltinSession;
let page: Page;

beforeAll(async () => {
  session = await startBuiltinUi('alias-model-gone', [
    { name: 'plain.gguf', script: SCRIPTS.plain },
    { name: 'thinker.gguf', script: SCRIPTS.reasoning },
  ]);
  page = session.page;
});

afterAll(() => stopBuiltinUi(session));

describe("the chosen alias's model file deleted", () => {
  it('says why Send waits, and keeps the draft', async () => {
    await page.evaluate(() => window.firebrand.aliases.create({ name: 'Helper', connectionId: 'builtin', model: 'plain.gguf', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: null }));
    await page.reload();
    await pickModel(page, 'Helper', 'alias');
    await page.getByTestId('composer-input').fill('Hello?');
    await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(false);
    // Deleted as Models → Delete does it (this tab or another): main tells every page the folder changed.
    await page.evaluate(() => window.firebrand.library.delete({ file: 'plain.gguf' }));
    await expect.poll(() => page.getByTestId('composer-reason').textContent().catch(() => '')).toBe('Its model, plain.gguf, is not in the models folder any more: edit the alias in Models.');
    expect(await page.getByTestId('composer-send').isDisabled()).toBe(true);
    expect(await page.getByTestId('composer-input').inputValue()).toBe('Hello?');
    await shootAtBothWidths(page, 'alias-model-gone');
    // Another model chosen: the draft goes.
    await pickModel(page, 'thinker.gguf');
    await expect.poll(() => page.getByTestId('composer-send').isDisabled()).toBe(false);
  });

  // An alias saved with 200,000 tokens on a model trained for 4,096 loaded a 200,000-token context, and nothing said so;
  // then only a note said so, while the model's own row refused the same window (builtin audit #5). Refused now.
  it('says in the alias list that a model is gone, and refuses an alias window past the trained context', async () => {
    await page.getByTestId('models-open').click();
    await page.getByTestId('library-item').first().waitFor();
    // The first case deleted Helper's model: the alias list says so, as the picker does.
    await expect.poll(() => page.getByTestId('alias-item').filter({ hasText: 'Helper' }).getByTestId('alias-model-gone').textContent().catch(() => '')).toBe('Its model, plain.gguf, is not in the models folder any more: edit the alias in Models.');
    await page.getByTestId('alias-name').fill('Wide');
    await page.getByTestId('alias-model').selectOption('thinker.gguf');
    await page.getByTestId('alias-context').fill('200000');
    await page.getByTestId('alias-save').click();
    await expect.poll(() => page.getByTestId('alias-problem').textContent().catch(() => '')).toBe(
      'thinker.gguf was trained for a context of 4,096 tokens, so a 200,000-token window is more than it can use. Keep 4,096 or less.',
    );
    await shootAtBothWidths(page, 'alias-window-above-trained', '[data-testid="alias-editor"]');
    // Within it, it is saved, and the list groups its digits as every other count.
    await page.getByTestId('alias-context').fill('4000');
    await page.getByTestId('alias-save').click();
    await expect.poll(() => page.getByTestId('alias-item').filter({ hasText: 'Wide' }).textContent().catch(() => '')).toContain('· 4,000 tokens');
  });
});
