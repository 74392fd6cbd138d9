/**
 * Electron-only: the real desktop shell. The Electron binary downloads lazily and cannot be fetched on machines
 * without access to its host, so these tests run only where it is present and print why otherwise.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const electronDir = join(ROOT, 'node_modules/electron');
const pathFile = join(electronDir, 'path.txt');
const binary = existsSync(pathFile) ? join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim()) : null;
const hasElectron = binary !== null && existsSync(binary);

if (!hasElectron) {
  console.log('Electron-only tests not run: the Electron binary is absent (node_modules/electron/dist). Run `npm start` once on a machine that can download it.');
}

describe.runIf(hasElectron)('the Electron shell', () => {
  it('opens a locked-down window that gets window.firebrand from the preload and nothing more', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'firebrand-electron-'));
    const app = await electron.launch({ executablePath: binary ?? '', args: [ROOT], env: { ...process.env, FIREBRAND_DATA_DIR: userData } as Record<string, string> });
    try {
      const page = await app.firstWindow();
      await page.waitForSelector('[data-testid="composer-input"]');
      // The options themselves are pinned by test/main/shell/window-options.test.ts; here their effect is checked.
      const globals = await page.evaluate(() => ({
        firebrand: typeof (window as unknown as { firebrand?: unknown }).firebrand,
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
      }));
      expect(globals).toEqual({ firebrand: 'object', require: 'undefined', process: 'undefined' });
      // Navigation away and new windows are denied. Each is checked where main decides it, not after a pause.
      type Seen = { __navigation?: Promise<boolean> };
      await app.evaluate(({ BrowserWindow }) => {
        const contents = BrowserWindow.getAllWindows()[0]?.webContents;
        // Registered after the app's own will-navigate handler, so it sees what that handler decided.
        (globalThis as Seen).__navigation = new Promise((seen) => contents?.once('will-navigate', (e) => seen(e.defaultPrevented)));
      });
      // window.open waits for main's window-open handler, which denies: when it returns, main has no new window.
      await page.evaluate(() => window.open('https://example.com'));
      expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
      await page.evaluate(() => {
        window.location.href = 'https://example.com';
      });
      expect(await app.evaluate(() => (globalThis as Seen).__navigation)).toBe(true);
      expect(app.windows().length).toBe(1);
      expect(page.url()).toMatch(/^app:\/\/firebrand\//);
      // Issue 15: no remote content (spellchecker off), and the guard covers contents the app did not make itself.
      expect(await app.evaluate(({ session }) => session.defaultSession.isSpellCheckerEnabled())).toBe(false);
      const other = await app.evaluate(async ({ BrowserWindow }) => {
        const w = new BrowserWindow({ show: false, webPreferences: { sandbox: true, contextIsolation: true } });
        await w.loadURL('data:text/html,<p>other</p>').catch(() => undefined);
        await w.webContents.executeJavaScript("location.href = 'https://example.com/'; window.open('https://example.com/')").catch(() => undefined);
        await new Promise((r) => setTimeout(r, 500));
        const url = w.webContents.getURL();
        w.destroy();
        return url;
      });
      expect(other.startsWith('data:')).toBe(true);
    } finally {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    }
  });

  // An export said "Exported" as its save dialog opened, cancelled or not (src/main/shell/download-outcome.ts).
  // The dialog is stood in for by a will-download listener of the test's, which picks a file (setSavePath) or
  // cancels, as the user would; the page hears how each of its downloads ended.
  it('tells the page how a download it started ended: saved to the file chosen, or cancelled', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'firebrand-electron-'));
    const app = await electron.launch({ executablePath: binary ?? '', args: [ROOT], env: { ...process.env, FIREBRAND_DATA_DIR: userData } as Record<string, string> });
    try {
      const page = await app.firstWindow();
      await page.waitForSelector('[data-testid="composer-input"]');
      const chosen = join(userData, 'chosen name.md');
      await app.evaluate(({ session }, path) => {
        session.defaultSession.on('will-download', (_event, item) => {
          if (item.getFilename() === 'keep.md') item.setSavePath(path);
          else item.cancel();
        });
      }, chosen);
      const ended = await page.evaluate(async () => {
        type Done = { url: string; state: string; fileName: string };
        const api = (window as unknown as { firebrand: { conversations: { onExportDone(l: (d: Done) => void): () => void } } }).firebrand;
        const save = (name: string) =>
          new Promise<string>((resolve) => {
            const url = URL.createObjectURL(new Blob(['# Tea'], { type: 'text/markdown' }));
            const stop = api.conversations.onExportDone((done) => {
              if (done.url !== url) return;
              stop();
              resolve(`${done.state} ${done.fileName}`);
            });
            const a = document.createElement('a');
            a.href = url;
            a.download = name;
            document.body.append(a);
            a.click();
            a.remove();
          });
        return [await save('keep.md'), await save('drop.md')];
      });
      expect(ended).toEqual(['completed chosen name.md', 'cancelled drop.md']);
      expect(readFileSync(chosen, 'utf8')).toBe('# Tea');
    } finally {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    }
  });
});
