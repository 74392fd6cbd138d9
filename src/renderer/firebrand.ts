import type { FirebrandApi } from '../shared/bridge';
import { bootedApi, bootedInDesktopApp } from './boot';

declare global {
  interface Window {
    /** Provided by the preload (Electron) or the serve shim (browser); the same API either way (see inDesktopApp). */
    firebrand: FirebrandApi;
  }
}

/** The bridge boot.ts set up (it holds events until the store listens), or the window's where nothing booted. */
export function firebrand(): FirebrandApi {
  return bootedApi() ?? window.firebrand;
}

/**
 * Whether the page runs in the desktop app rather than a browser in serve mode. The API is the same; what differs
 * is the page's download: in a browser it is the save, in the desktop app it opens the shell's save dialog, which
 * says how it ended (`conversations:export-done`).
 */
export function inDesktopApp(): boolean {
  return bootedInDesktopApp();
}
