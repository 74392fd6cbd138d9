import type { CustomScheme } from 'electron';

/**
 * The `app:` scheme the window loads the renderer from (APP_ORIGIN). Standard and secure: relative URLs resolve,
 * and the page is a secure context with its own origin. `codeCache`: Electron keeps V8's compiled code only for
 * http(s) pages unless a custom scheme asks for it, so without it every start parsed and compiled the app's
 * scripts again (bench/start measures a first start in serve mode; this is what a second one saves).
 */
export const APP_SCHEME: CustomScheme = { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } };
