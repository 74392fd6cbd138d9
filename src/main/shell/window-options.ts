import type { BrowserWindowConstructorOptions } from 'electron';

/** The renderer runs with Electron's security switched fully on (DESIGN.md §8). */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
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
      spellcheck: true,
    },
  };
}
