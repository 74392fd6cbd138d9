import type { FirebrandApi } from '../shared/bridge';
import { bootedApi } from './boot';

declare global {
  interface Window {
    /** Provided by the preload (Electron) or the serve shim (browser); the app cannot tell which. */
    firebrand: FirebrandApi;
  }
}

/** The bridge boot.ts set up (it holds events until the store listens), or the window's where nothing booted. */
export function firebrand(): FirebrandApi {
  return bootedApi() ?? window.firebrand;
}
