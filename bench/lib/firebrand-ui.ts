/**
 * Firebrand in serve mode (the built out/main/serve.js) in Debian's Chromium, set up the way the e2e tests do
 * it (test/e2e/helpers), with every piece registered for cleanup.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../test/e2e/helpers/browser';
import { startServeProcess, type ServeProcess } from '../../test/e2e/helpers/serve-process';
import type { Cleanup } from './cleanup';
import { waitInPage } from './open-timer';

const ROOT = resolve(import.meta.dirname, '../..');

export function requireBuild(): void {
  if (!existsSync(join(ROOT, 'out/main/serve.js')) || !existsSync(join(ROOT, 'out/renderer/index.html'))) {
    throw new Error('serve mode is not built: run `npx electron-vite build` first');
  }
}

export async function browser(cleanup: Cleanup): Promise<Browser> {
  const b = await launchChromium();
  cleanup.add('chromium', () => b.close());
  return b;
}

export function tempDir(cleanup: Cleanup, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.add(`rm ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function serve(cleanup: Cleanup, dataDir: string, ollamaUrl: string): Promise<ServeProcess> {
  const s = await startServeProcess({ dataDir, ollamaUrl });
  cleanup.add('serve', () => s.stop());
  return s;
}

/** Opens Firebrand and waits until a model is selected, i.e. a message can be sent. */
export async function openFirebrand(b: Browser, url: string): Promise<Page> {
  // bypassCSP: the app's CSP forbids eval, and the probes are script strings (see page-probe.ts).
  const page = await b.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await page.goto(url);
  await waitInteractive(page);
  return page;
}

/** True in the page once a message can be sent: the composer is enabled and a model is picked. */
export const INTERACTIVE = `(() => { const i = document.querySelector('[data-testid="composer-input"]'); const m = document.querySelector('[data-testid="model-picker"]'); return !!i && !i.disabled && !!m && (m.getAttribute('data-value') ?? '') !== ''; })()`;

/**
 * Polled by the page itself each frame (open-timer.ts): Playwright's waitForFunction would first evaluate its own
 * injected script in the page (13-23 ms of its main thread while the app is still starting, traced), which bench/start
 * would count as Firebrand's start and the floor's blank page never runs.
 */
export async function waitInteractive(page: Page, timeoutMs = 30_000): Promise<void> {
  await waitInPage(page, INTERACTIVE, timeoutMs, 'raf');
}

/** Sends `text` in a new chat (so the streamed answer is the only assistant turn on screen). */
export async function sendInNewChat(page: Page, text: string): Promise<void> {
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-send').click();
}

export const ANSWER = '[data-testid="turn"][data-role="assistant"] [data-run="answer"]';

/** Waits until no turn streams any more. */
export async function waitAnswered(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.waitForFunction(
    `document.querySelector('[data-testid="turn"][data-role="assistant"]') !== null && document.querySelector('[data-testid="turn"][data-status="streaming"]') === null`,
    undefined,
    { timeout: timeoutMs, polling: 100 },
  );
}
