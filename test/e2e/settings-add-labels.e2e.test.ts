/**
 * Settings → Connections, the add form: its boxes were named by placeholders only, which go as the user types, and
 * the address box, filled with the kind's usual address, by nothing at all, so a new user met a bare
 * "http://127.0.0.1:8080" and had to guess what it was (settings user's-eyes pass). Each field now has its name over
 * it, as the editor's fields and the tool server form's do, under a title that says what the form is for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

const FIELDS = ['connection-add-kind', 'connection-add-label', 'connection-add-url', 'connection-add-key'];

describe('the add-a-connection form', () => {
  it('shows each field its name, with the form titled, at a desktop width and a phone width, also once typed in', async () => {
    s = await startUi();
    const { page } = s;
    await page.getByTestId('settings-open').click();
    // The words on screen naming each box: its label's own text, drawn (a placeholder is no label's text).
    const shownNames = () =>
      page.evaluate((ids) => {
        return ids.map((id) => {
          const el = document.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-testid="${id}"]`);
          const label = el?.labels?.[0];
          if (!label) return null;
          const words = [...label.childNodes].filter((n) => {
            if (n.nodeType !== Node.TEXT_NODE || (n.textContent ?? '').trim() === '') return false;
            const range = document.createRange();
            range.selectNodeContents(n);
            const r = range.getBoundingClientRect();
            return r.width > 0 && r.height > 0;
          });
          return words.map((n) => n.textContent).join('').trim();
        });
      }, FIELDS);
    const named = ['Server kind', 'Name (optional)', 'Server address', 'API key (optional)'];
    await page.getByTestId('connection-add-label').fill('Desk llama');
    expect(await shownNames()).toEqual(named);
    expect(await page.getByRole('form', { name: 'Add a connection' }).count()).toBe(1);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('connection-add-url').scrollIntoViewIfNeeded();
    expect(await shownNames()).toEqual(named);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shootAtBothWidths(page, 'settings-add-labels', '[data-testid="connection-add"]');
  });
});
