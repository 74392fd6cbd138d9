/**
 * The words of a refused import (import words pass): the notice said "This file cannot be imported…" without
 * naming the file, and a picture picked by mistake was "not valid JSON", jargon that did not say what Import reads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2b1d8a10000000049454e44ae426082', 'hex');

describe('a refused import', () => {
  it('names the file, and says a picture is not a conversation export and a JSON file cut short looks damaged', async () => {
    s = await startUi();
    const { page } = s;
    const input = page.getByTestId('conversation-import-input');
    const notice = () => page.getByTestId('notice').textContent().catch(() => null);

    await input.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG_BYTES });
    await expect
      .poll(notice)
      .toContain('“photo.png” cannot be imported: it is not a conversation export; Firebrand imports the .firebrand.json files that Export and Export all save. Nothing was imported.');
    await shootAtBothWidths(page, 'import-refused-picture');

    await expect.poll(() => page.getByTestId('import-progress').count()).toBe(0);
    await input.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"title":"Tea","messages":[{"role":"user","content":"How ho') });
    await expect.poll(notice).toContain('“notes.json” cannot be imported: it looks cut short or damaged (a download or copy that did not finish?), so it cannot be read.');
    expect(await page.getByTestId('conversation-item').count()).toBe(0);
  });
});
