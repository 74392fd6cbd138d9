/**
 * Vision audit: after a chat with an image, a switch to a model that cannot read images sent the image as a note in
 * its place ("[image red.png: not sent, this model cannot read images]"), while the chat still showed the image and
 * nothing told the user the model would not see it. The message box now says so under it, before Send, for the
 * model and the branch on screen; nothing is refused. Screenshots of the note at 1280 and 390 px are artifacts of the
 * run (test-results/screenshots, not committed).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRoutes, expectPicked, ollamaLines, pickModel, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';
import { tinyPng } from './helpers/png';
import { startServeProcess } from './helpers/serve-process';
import { startReplayServer } from '../replay-server/replay-server';

const OUT = resolve(import.meta.dirname, '../../test-results/screenshots');
const NOTE = "The image earlier in this chat won't be sent: llama3.2:3b cannot read images. Choose a model that can, or send without it.";

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('earlier images and a model that cannot read them', () => {
  it('says under the message box that the chat’s image will not be sent, for the model and the chat on screen, and still sends; the answer says it was written without it', async () => {
    // qwen3:8b can see (its /api/show lists vision); llama3.2:3b cannot.
    const vision = { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","vision"],"details":{"family":"gemma3"}}', when: (b: string) => b.includes('qwen3:8b') };
    const textOnly = { method: 'POST', path: '/api/show', body: '{"capabilities":["completion"],"details":{"family":"llama"}}' };
    s = await startUi([vision, textOnly, ...chatRoutes(ollamaLines([{ content: 'Done.' }]), 10), { path: '/api/ps', body: '{"models":[]}' }]);
    const { page } = s;
    const note = page.getByTestId('unseen-images-note');
    const meter = page.getByTestId('context-meter');

    await pickModel(page, 'qwen3:8b');
    await page.getByTestId('attach-input').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: tinyPng() });
    await page.getByTestId('pending-attachments').waitFor();
    await send(page, 'What colour is this?');
    await waitIdle(page);
    expect(await note.count()).toBe(0);

    // The model changes: the note comes, and Send is not held back by it.
    await pickModel(page, 'llama3.2:3b');
    await expect.poll(() => note.textContent()).toBe(NOTE);
    await page.getByTestId('composer-input').fill('And without vision?');
    expect(await page.getByTestId('composer-send').isDisabled()).toBe(false);
    expect(await page.getByTestId('composer-reason').count()).toBe(0);

    mkdirSync(OUT, { recursive: true });
    await meter.waitFor();
    await page.screenshot({ path: resolve(OUT, 'unseen-images-1280.png') });
    await page.setViewportSize({ width: 390, height: 800 });
    await note.waitFor();
    await page.screenshot({ path: resolve(OUT, 'unseen-images-390.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Back to a model that can see: nothing to say.
    await pickModel(page, 'qwen3:8b');
    await expect.poll(() => note.count()).toBe(0);
    await pickModel(page, 'llama3.2:3b');
    await expect.poll(() => note.textContent()).toBe(NOTE);

    // Another chat, without the image: nothing to say; back in the first, the note again.
    await page.getByTestId('new-chat').click();
    await expect.poll(() => page.locator('[data-testid="turn"]').count()).toBe(0);
    await pickModel(page, 'llama3.2:3b');
    expect(await note.count()).toBe(0);
    // The first chat opens with the model it last used, which can see; with llama3.2:3b the note comes back.
    await page.getByTestId('conversation-item').first().click();
    await expectPicked(page, 'qwen3:8b');
    expect(await note.count()).toBe(0);
    await pickModel(page, 'llama3.2:3b');
    await expect.poll(() => note.textContent()).toBe(NOTE);

    // Sent, the image goes as the note said: in words, not as an image.
    await page.getByTestId('composer-input').fill('And without vision?');
    await page.getByTestId('composer-send').click();
    await expect.poll(() => page.locator('[data-testid="turn"][data-role="assistant"][data-status="done"]').count()).toBe(2);
    const sent = s.replay.requests.filter((r) => r.path === '/api/chat').map((r) => JSON.parse(r.body) as { model: string; messages: unknown[] });
    expect(sent.find((b) => b.model === 'llama3.2:3b')?.messages[0]).toEqual({ role: 'user', content: 'What colour is this?\n\n[image red.png: not sent, this model cannot read images]' });
    expect(await note.textContent()).toBe(NOTE);
    // And the answer says it was written without it; the first one, from a model that can see, says nothing.
    const marks = page.locator('[data-testid="turn"][data-role="assistant"]').getByTestId('answer-unseen-images');
    await expect.poll(() => marks.count()).toBe(1);
    expect(await page.locator('[data-testid="turn"][data-role="assistant"]').nth(1).getByTestId('answer-unseen-images').textContent()).toBe('without the image');
    await page.screenshot({ path: resolve(OUT, 'unseen-images-answer-1280.png') });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: resolve(OUT, 'unseen-images-answer-390.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The last closing note's gaps: the mark looked the answer's model up by name in the model list read now, so
    // another connection (or server) that lists those names with other capabilities changed the old answers' marks.
    // Firebrand started again against a server that says the opposite of both: each answer says what was recorded.
    await s.serve.stop();
    await s.replay.close();
    s.replay = await startReplayServer([
      { ...vision, when: (b: string) => b.includes('llama3.2:3b') },
      textOnly,
      ...chatRoutes(ollamaLines([{ content: 'Done.' }]), 10),
      { path: '/api/ps', body: '{"models":[]}' },
    ]);
    s.serve = await startServeProcess({ dataDir: s.dataDir, ollamaUrl: s.replay.url });
    await page.goto(s.serve.url);
    await page.getByTestId('conversation-item').first().click();
    await page.locator('[data-testid="turn"][data-role="assistant"][data-status="done"]').nth(1).waitFor();
    // The list read now says so (the message box's note is its word, for the chat's next message).
    await pickModel(page, 'qwen3:8b');
    await expect.poll(() => note.textContent()).toBe(NOTE.replace('llama3.2:3b', 'qwen3:8b'));
    expect(await marks.count()).toBe(1);
    expect(await page.locator('[data-testid="turn"][data-role="assistant"]').nth(0).getByTestId('answer-unseen-images').count()).toBe(0);
    expect(await page.locator('[data-testid="turn"][data-role="assistant"]').nth(1).getByTestId('answer-unseen-images').textContent()).toBe('without the image');
  });
});
