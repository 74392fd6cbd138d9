import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { createMainWindow } from '../../../src/main/shell/window-options';

describe('the main window', () => {
  it('is created with Electron security fully on', () => {
    let seen: BrowserWindowConstructorOptions | undefined;
    class FakeWindow {
      constructor(options: BrowserWindowConstructorOptions) {
        seen = options;
      }
    }
    createMainWindow(FakeWindow as unknown as new (o: BrowserWindowConstructorOptions) => BrowserWindow, '/app/preload/index.cjs');
    expect(seen?.webPreferences).toMatchObject({
      preload: '/app/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      disableBlinkFeatures: 'Auxclick',
      // Issue 15: no remote dictionaries.
      spellcheck: false,
    });
  });
});
