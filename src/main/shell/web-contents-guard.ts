/**
 * The shell's guard for EVERY web contents Electron creates (issue 15: the window had its own handlers, but a
 * contents created any other way, a devtools page or a future window, had none), as a function of a minimal
 * interface so it is unit tested under Node. Navigation, redirects and webviews are refused; `window.open` is
 * refused, and an http(s) link is handed to the system browser instead (src/main/shell/ipc-guard.ts linkPolicy).
 * No remote content either: the spellchecker, which downloads Hunspell dictionaries from a Google CDN on Linux
 * and Windows, is off.
 */
import { linkPolicy } from './ipc-guard';

/** What the guard needs of an Electron `WebContents`. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', listener: (event: { preventDefault(): void }, ...rest: unknown[]) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** What the guard needs of an Electron `Session`. */
export interface GuardedSession {
  setSpellCheckerEnabled(enable: boolean): void;
}

export function guardWebContents(contents: GuardedContents, openExternal: (url: string) => void, log: (message: string) => void): void {
  for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview'] as const) {
    contents.on(event, (e, ...rest) => {
      e.preventDefault();
      const target = typeof rest[0] === 'string' ? rest[0] : '';
      log(`shell: refused ${event}${target ? ` to ${target.slice(0, 200)}` : ''}`);
    });
  }
  contents.setWindowOpenHandler(({ url }) => {
    const link = linkPolicy(url);
    if (link.action === 'open-external') openExternal(link.url);
    return { action: 'deny' };
  });
}

/** No dictionary downloads, on every session the app uses. */
export function noRemoteContent(session: GuardedSession): void {
  session.setSpellCheckerEnabled(false);
}
