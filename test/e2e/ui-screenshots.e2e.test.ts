/**
 * Screenshots of the main screens in light and dark, as artifacts of the run (test-results/screenshots, not
 * committed), and the theme setting persisting across a reload.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRoutes, ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

const OUT = resolve(import.meta.dirname, '../../test-results/screenshots');
let s: UiSession | undefined;

const ANSWER = [
  { thinking: 'The user wants a comparison. ' },
  { thinking: 'A small table and an example will do.' },
  { content: 'Here is a quick comparison of **Ollama** and **llama-server**:\n\n' },
  { content: '| server | API | streams |\n|---|---|---|\n| Ollama | `/api/chat` | NDJSON |\n| llama-server | `/v1/chat/completions` | SSE |\n\n' },
  { content: 'Start one like this:\n\n```bash\nollama serve\nllama-server -m model.gguf --port 8080\n```\n\n' },
  { content: '- Both run **locally**\n- Both can use your GPU\n' },
];

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  s = await startUi(chatRoutes(ollamaLines(ANSWER), 20));
  const { page, replay } = s;
  await send(page, 'How do Ollama and llama-server differ?');
  await waitIdle(page);
  replay.setRoutes(chatRoutes(ollamaLines([{ content: 'Use `ollama ps` to see which models are loaded and how much VRAM each one takes.' }])));
  await send(page, 'How do I see what is loaded?');
  await waitIdle(page);
});
afterAll(async () => {
  await stopUi(s);
});

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  if (!s) throw new Error('no session');
  const { page } = s;
  await page.getByTestId('settings-open').click();
  await page.getByTestId(`settings-theme-${theme}`).check();
  await page.getByTestId('settings-save').click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
}

describe('screenshots', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`captures the main screens in ${theme}`, async () => {
      if (!s) throw new Error('no session');
      const { page } = s;
      await setTheme(theme);
      await page.reload();
      await page.getByTestId('conversation-item').first().click();
      await page.locator('[data-testid="turn"][data-role="assistant"]').nth(1).waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      // Open the thinking block so the screenshot shows it.
      await page.locator('[data-run="reasoning"] summary').first().click();
      await page.getByTestId('composer-input').fill('A draft with a **question**');
      await page.screenshot({ path: `${OUT}/chat-${theme}.png` });

      await page.getByTestId('search-input').fill('llama');
      await page.getByTestId('search-result').first().waitFor();
      await page.screenshot({ path: `${OUT}/search-${theme}.png` });
      await page.getByTestId('search-input').fill('');

      await page.getByTestId('new-chat').click();
      await page.screenshot({ path: `${OUT}/empty-${theme}.png` });

      await page.getByTestId('settings-open').click();
      // Settings' code loads when first opened: on a busy machine the dialog came after the Escape below, whose
      // wait for it to be gone then passed at once, and the dialog opened over the next test's first click.
      await page.getByTestId('settings-dialog').waitFor();
      await page.screenshot({ path: `${OUT}/settings-${theme}.png` });
      // Escape closes Settings wherever the focus is (it used to need a click on the backdrop; issue 13).
      await page.keyboard.press('Escape');
      await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    });
  }
});
