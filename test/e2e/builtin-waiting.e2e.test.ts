/**
 * Round 7, engine #1, as a user with Firebrand open in two tabs meets it: the built-in engine answers one message at
 * a time, whatever the model. Tab A's endless answer on long.gguf runs; tab B's message on plain.gguf said "Loading
 * plain.gguf into memory" all the while (it was waiting for tab A's answer, and plain.gguf was loaded only then),
 * and its Stop took effect only once tab A's answer ended. Serve mode with the real engine process on scripted
 * GGUFs; no Ollama anywhere.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { openPage } from './helpers/browser';
import { startBuiltinUi, stopBuiltinUi, type BuiltinSession } from './helpers/builtin-session';
import { pickModel } from './helpers/picker';
import { SHOTS_DIR } from './helpers/screenshots';

let session: BuiltinSession;
let tabA: Page;
let tabB: Page;

beforeAll(async () => {
  // The endless answer runs until its window is full: 32K tokens keep it going for the test's few steps (8K lasted
  // under 15 s here).
  session = await startBuiltinUi('builtin-waiting', [
    { name: 'long.gguf', script: SCRIPTS.long, options: { contextLength: 32_768 } },
    { name: 'plain.gguf', script: SCRIPTS.plain },
  ]);
  tabA = session.page;
  tabB = await openPage(session.browser, { viewport: { width: 1280, height: 800 } });
  await tabB.goto(session.serve.url);
});

afterAll(() => stopBuiltinUi(session));

const lastAnswer = (page: Page) => page.locator('[data-testid="turn"][data-role="assistant"]').last();

async function send(page: Page, model: string, text: string): Promise<void> {
  await pickModel(page, model);
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-send').click();
}

describe('two tabs on the built-in engine', () => {
  it('says an answer waits for the other tab’s answer on another model, then loads its own, and stops it at once', async () => {
    await send(tabA, 'long.gguf', 'Count for me.');
    await expect.poll(async () => (await lastAnswer(tabA).innerText()).length).toBeGreaterThan(40);

    await send(tabB, 'plain.gguf', 'Hello?');
    const line = tabB.getByTestId('model-loading');
    await expect.poll(() => line.getAttribute('data-state')).toBe('queued');
    expect(await line.innerText()).toBe('Waiting for the answer on long.gguf to finish, then loading plain.gguf.');
    // Not shootAtBothWidths: it waits for every animation to end, and the waiting line's dots never do.
    mkdirSync(SHOTS_DIR, { recursive: true });
    for (const width of [1280, 390]) {
      await tabB.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      // The sidebar's slide (when the width changes) ends; the dots' endless animation is left going.
      await tabB.waitForFunction(() => document.getAnimations().every((a) => a.effect?.getTiming().iterations === Infinity));
      await tabB.screenshot({ path: `${SHOTS_DIR}/builtin-waiting-behind-other-model-${width}.png` });
    }

    await tabB.getByTestId('composer-stop').click();
    await expect.poll(() => lastAnswer(tabB).getAttribute('data-status')).toBe('aborted');
    // Tab A's answer goes on: the stop did not wait for it to end.
    expect(await lastAnswer(tabA).getAttribute('data-status')).toBe('streaming');
    await tabA.getByTestId('composer-stop').click();
    await expect.poll(() => lastAnswer(tabA).getAttribute('data-status')).toBe('aborted');
  });

  // Round 9: tab B's Running panel showed tab A's answering model like an idle one, and offered Unload, which main
  // then refused ("long.gguf is answering now: stop that answer first").
  it('says in the other tab’s Running panel that a model answers, without offering Unload or Load, until the answer ends', async () => {
    // The case before left tab B at 390 px, where the sidebar (and its Models button) is folded away.
    await tabB.setViewportSize({ width: 1280, height: 800 });
    await send(tabA, 'long.gguf', 'Count again.');
    await expect.poll(async () => (await lastAnswer(tabA).innerText()).length).toBeGreaterThan(40);
    await tabB.getByTestId('models-open').click();
    const row = tabB.locator('[data-testid="running-builtin"][data-file="long.gguf"]');
    await expect.poll(() => row.getAttribute('data-answering')).toBe('true');
    expect(await row.innerText()).toContain('answering now: stop the answer to unload it');
    expect(await row.getByRole('button', { name: 'Unload long.gguf' }).isDisabled()).toBe(true);
    const file = tabB.locator('[data-testid="library-item"][data-file="long.gguf"]');
    expect(await file.getByTestId('library-unload').isDisabled()).toBe(true);
    // Nor Delete…, which main refuses while the file answers (it was offered, then refused with a message far from
    // the row on a phone): it waits as Unload does, with the same reason on hover.
    const del = file.getByTestId('library-delete');
    expect(await del.isDisabled()).toBe(true);
    expect(await del.getAttribute('title')).toBe('It is answering: stop that answer first.');
    expect(await file.getByTestId('library-unload').getAttribute('title')).toBe('It is answering: stop that answer first.');
    // Nor a Load the engine would refuse (it loads nothing until the answer ends), with why on hover.
    const load = tabB.locator('[data-testid="library-item"][data-file="plain.gguf"]').getByTestId('library-load');
    expect(await load.isDisabled()).toBe(true);
    expect(await load.getAttribute('title')).toBe('The engine is answering on long.gguf: load plain.gguf once that answer ends.');
    mkdirSync(SHOTS_DIR, { recursive: true });
    for (const width of [1280, 390]) {
      await tabB.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await row.scrollIntoViewIfNeeded();
      await tabB.screenshot({ path: `${SHOTS_DIR}/builtin-running-answering-${width}.png` });
      await file.scrollIntoViewIfNeeded();
      await tabB.screenshot({ path: `${SHOTS_DIR}/builtin-delete-answering-${width}.png` });
    }
    await tabB.setViewportSize({ width: 1280, height: 800 });

    await tabA.getByTestId('composer-stop').click();
    await expect.poll(() => lastAnswer(tabA).getAttribute('data-status')).toBe('aborted');
    await expect.poll(() => row.getAttribute('data-answering')).toBe('false');
    expect(await row.getByRole('button', { name: 'Unload long.gguf' }).isEnabled()).toBe(true);
    expect(await load.isEnabled()).toBe(true);
    expect(await del.isEnabled()).toBe(true);
    await tabB.getByTestId('models-close').click();
  });
});
