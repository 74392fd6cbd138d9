import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';

type WindowConstructor = new (options: BrowserWindowConstructorOptions) => BrowserWindow;

/**
 * Opens the main window with Electron's security switched fully on (DESIGN.md §8). The options are written as
 * one literal at the `new` so static checkers (electronegativity in CI) see every switch.
 */
export function createMainWindow(Window: WindowConstructor, preloadPath: string): BrowserWindow {
  return new Window({
    width: 1200,
    height: 820,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: 'Firebrand',
    backgroundColor: '#15161a',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      enableBlinkFeatures: '',
      // A middle click would otherwise open a link in a new window without going through the open handler.
      disableBlinkFeatures: 'Auxclick',
      // Chromium's spellchecker downloads dictionaries from a Google CDN: no remote content (issue 15).
      spellcheck: false,
    },
  });
}
