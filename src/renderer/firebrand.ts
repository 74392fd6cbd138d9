import type { FirebrandApi } from '../shared/bridge';

declare global {
  interface Window {
    /** Provided by the preload (Electron) or the serve shim (browser); the app cannot tell which. */
    firebrand: FirebrandApi;
  }
}

export function firebrand(): FirebrandApi {
  return window.firebrand;
}
