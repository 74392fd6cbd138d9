/**
 * The built-in engine's files as the user meets them in the composer and in Models (builtin audit #3, #4, #6, #8):
 * a blank answer says so, a file renamed in Models stays chosen under its new name, a file whose load failed says
 * why on its row and is never chosen on its own, and the file answering removed keeps the choice until the answer
 * ends. Serve mode with the real engine process on scripted GGUFs; no Ollama anywhere.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateScriptedModel } from '../support/scripted-gguf/generate';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { startBuiltinUi, stopBuiltinUi, type BuiltinSession } from './helpers/builtin-session';
import { expectPicked, pickerValues, pickModel } from './helpers/picker';
import { shootAtBothWidths } from './helpers/screenshots';

let session: BuiltinSession;
let modelsDir: string;
let page: Page;

beforeAll(async () => {
  session = await startBuiltinUi(
    'builtin-ui',
    [
      { name: 'unclosed.gguf', script: SCRIPTS.unclosedThink },
      { name: 'plain.gguf', script: SCRIPTS.plain },
      { name: 'long.gguf', script: SCRIPTS.long, options: { contextLength: 32_768 } },
    ],
    (dir) => {
      // A valid header whose weights lack a tensor: listed as usable, and llama.cpp refuses to load it. Its name
      // sorts first, so a choice that takes the first listed file takes it.
      const bad = readFileSync(generateScriptedModel(SCRIPTS.plain));
      const at = bad.indexOf('token_embd.weight');
      bad.write('token_embX.weight', at);
      writeFileSync(join(dir, 'badtensor.gguf'), bad);
    },
  );
  ({ modelsDir, page } = session);
});

afterAll(() => stopBuiltinUi(session));

const lastAnswer = () => page.locator('[data-testid="turn"][data-role="assistant"]').last();
const answerText = async () => (await lastAnswer().locator('.markdown').textContent()) ?? '';

async function send(model: string, text: string): Promise<void> {
  await pickModel(page, model);
  await sendText(text);
}

/**
 * Sends `text` and waits until main took it (the draft empties): from then on its answer is the last one, where the
 * last answer had been the one before, already done, and a poll for "done" could read that one.
 */
async function sendText(text: string): Promise<void> {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-send').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement | null)?.value === '');
}

describe('built-in files in the composer and in Models', () => {
  it('says a blank answer is one: reasoning that never closed reads "no answer, only reasoning", to the eye and the announcer (builtin audit #6)', async () => {
    await send('unclosed.gguf', 'What is the weather?');
    await expect.poll(() => lastAnswer().getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    // Before: a folded "Thought for 1 s", then only the footer.
    await expect.poll(() => lastAnswer().getByTestId('answer-blank').textContent()).toBe('The model wrote no answer, only reasoning.');
    await expect.poll(() => page.getByTestId('answer-announcer').textContent()).toBe('unclosed.gguf: The model wrote no answer, only reasoning.');
    await shootAtBothWidths(page, 'builtin-blank-answer', '[data-testid="answer-blank"]');
  });

  it('keeps a GGUF renamed in Models chosen, under its new name, not "no longer in the models folder" (builtin audit #3)', async () => {
    await pickModel(page, 'plain.gguf');
    await page.getByTestId('models-open').click();
    const row = page.locator('[data-testid="library-item"][data-file="plain.gguf"]');
    await row.getByTestId('library-rename').click();
    await row.getByTestId('library-rename-input').fill('plain-renamed.gguf');
    await row.getByTestId('library-rename-save').click();
    await page.locator('[data-testid="library-item"][data-file="plain-renamed.gguf"]').waitFor();
    await page.getByTestId('models-close').click();
    // Before: "plain.gguf is no longer in the models folder; badtensor.gguf is chosen now."
    await expectPicked(page, 'plain-renamed.gguf');
    // The answer goes to the renamed file, and nothing was said to be gone.
    await sendText('Hello?');
    await expect.poll(() => lastAnswer().getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    expect(await lastAnswer().getByTestId('model-label').getAttribute('data-model')).toBe('plain-renamed.gguf');
    expect(await page.getByTestId('notice').count()).toBe(0);
  });

  it('says on its row that a file failed to load, and never chooses it on its own (builtin audit #8)', async () => {
    await page.getByTestId('models-open').click();
    const row = page.locator('[data-testid="library-item"][data-file="badtensor.gguf"]');
    await row.getByTestId('library-load').click();
    // Before: the row still read as usable, with only Load, and the error sat at the top of the section.
    await expect.poll(() => row.getByTestId('library-load-error').textContent(), { timeout: 60_000 }).toMatch(/^Loading it failed: badtensor\.gguf could not be loaded: .*missing tensor.* Load tries again\.$/);
    expect(await row.getByTestId('library-load').isEnabled()).toBe(true);
    await row.scrollIntoViewIfNeeded();
    await shootAtBothWidths(page, 'builtin-load-failed-row', '[data-testid="library-load-error"]');
    await page.getByTestId('models-close').click();
    // The chosen file goes: the first file listed is the broken one, and the next is chosen instead.
    await pickModel(page, 'plain-renamed.gguf');
    rmSync(join(modelsDir, 'plain-renamed.gguf'));
    await expect.poll(() => page.getByTestId('notice').locator('.banner-text').textContent()).toContain('plain-renamed.gguf is no longer in the models folder');
    await expectPicked(page, 'long.gguf');
    await page.getByTestId('notice').getByTestId('banner-close').click();
  });

  it('keeps the GGUF answering chosen when its file is removed, until the answer ends, then says it was removed', async () => {
    await send('long.gguf', 'Go on and on.');
    await expect.poll(() => lastAnswer().getAttribute('data-status'), { timeout: 60_000 }).toBe('streaming');
    await expect.poll(answerText, { timeout: 60_000 }).not.toBe('');
    rmSync(join(modelsDir, 'long.gguf'));
    // The folder change is seen: the picker offers the file no more.
    await expect.poll(() => pickerValues(page), { timeout: 60_000 }).not.toContain('long.gguf');
    // Before: another file was chosen here, with "long.gguf is no longer in the models folder", under the answer
    // still streaming from long.gguf. The engine answers on from the weights in memory.
    expect(await page.getByTestId('model-picker').getAttribute('data-name')).toBe('long.gguf');
    expect(await page.getByTestId('notice').count()).toBe(0);
    const before = await answerText();
    await expect.poll(async () => (await answerText()).length, { timeout: 60_000 }).toBeGreaterThan(before.length);
    await page.getByTestId('composer-stop').click();
    await expect.poll(() => page.getByTestId('notice').locator('.banner-text').textContent(), { timeout: 60_000 }).toBe(
      'long.gguf is no longer in the models folder (it was removed while it answered); unclosed.gguf is chosen now.',
    );
    await expectPicked(page, 'unclosed.gguf');
    // What it wrote before it was stopped is kept.
    expect((await answerText()).length).toBeGreaterThan(before.length);
    await shootAtBothWidths(page, 'builtin-removed-while-answering', '[data-testid="notice"]');
  });
});
