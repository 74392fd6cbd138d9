/**
 * Export and import from the conversation list: a user saves a conversation (all branches and attachments) and
 * its Markdown, imports the file back as a second conversation, and is told clearly when a file is refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { ASSISTANT, chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('export and import', () => {
  it('exports a conversation as a file and as Markdown, and imports the file back', async () => {
    s = await startUi(chatRoutes(ollamaLines([{ thinking: 'Plan the reply.' }, { content: 'Tea is best at **80 °C**.' }])));
    const { page } = s;
    await send(page, 'How hot should green tea be?');
    await waitIdle(page);
    const item = page.getByTestId('conversation-item');
    await expect.poll(() => item.count()).toBe(1);

    await item.hover();
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export').click()]);
    expect(json.suggestedFilename()).toMatch(/\.firebrand\.json$/);
    // saveAs, not path(): the tests' Chromium is shared and connected to remotely, where path() is not available.
    const saved = mkdtempSync(join(tmpdir(), 'firebrand-e2e-export-'));
    onTestFinished(() => rmSync(saved, { recursive: true, force: true }));
    const jsonPath = join(saved, json.suggestedFilename());
    await json.saveAs(jsonPath);
    const file = JSON.parse(readFileSync(jsonPath, 'utf8')) as { format: string; version: number; turns: unknown[] };
    expect(file.format).toBe('firebrand.conversation');
    expect(file.turns.length).toBeGreaterThanOrEqual(2);

    await item.hover();
    const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export-md').click()]);
    expect(md.suggestedFilename()).toMatch(/\.md$/);
    const mdPath = join(saved, md.suggestedFilename());
    await md.saveAs(mdPath);
    const markdown = readFileSync(mdPath, 'utf8');
    expect(markdown).toContain('How hot should green tea be?');
    expect(markdown).toContain('Tea is best at **80 °C**.');

    // Importing the same file again makes a second conversation (ids remapped), opened with its answer.
    await page.getByTestId('conversation-import-input').setInputFiles(jsonPath);
    await expect.poll(() => item.count()).toBe(2);
    await expect.poll(() => page.locator(ASSISTANT).first().locator('[data-run="answer"]').textContent()).toContain('Tea is best at');
  });

  it('refuses a file that is not a Firebrand export, saying so, and imports nothing', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('conversation-import-input').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"world"}') });
    await expect.poll(() => page.getByTestId('notice').textContent()).toContain('cannot be imported');
    expect(await page.getByTestId('conversation-item').count()).toBe(0);
  });
});
