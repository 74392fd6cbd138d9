/**
 * Issue 15 item 20, under Node: the guard the shell installs on every web contents (`web-contents-created`), and
 * the session setting that keeps the spellchecker from downloading dictionaries. The Electron-only test
 * (test/e2e/electron.e2e.test.ts) checks the same on the real shell where the binary exists.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { guardWebContents, noRemoteContent } from '../../../src/main/shell/web-contents-guard';

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Fires an Electron-style event; true when a listener called preventDefault. */
  fire(event: string, ...args: unknown[]): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true) }, ...args);
    return prevented;
  }
}

describe('the web contents guard', () => {
  it('refuses navigation, redirects and webviews on any contents it is given', () => {
    const contents = new FakeContents();
    const logs: string[] = [];
    guardWebContents(contents, () => {}, (m) => logs.push(m));
    expect(contents.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-redirect', 'http://169.254.169.254/')).toBe(true);
    expect(contents.fire('will-attach-webview', {}, {})).toBe(true);
    expect(logs).toEqual(['shell: refused will-navigate to https://evil.example/', 'shell: refused will-redirect to http://169.254.169.254/', 'shell: refused will-attach-webview']);
  });

  it('denies every new window; only an http(s) link goes to the system browser', () => {
    const contents = new FakeContents();
    const opened: string[] = [];
    guardWebContents(contents, (url) => opened.push(url), () => {});
    for (const url of ['https://example.org/a', 'javascript:alert(1)', 'file:///etc/passwd', 'app://firebrand/index.html', 'HTTP://Example.org/b', 'http://user:pw@example.org/']) {
      expect(contents.openHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(opened).toEqual(['https://example.org/a', 'http://example.org/b']);
  });

  it('turns the spellchecker off, so no dictionary is downloaded', () => {
    const calls: boolean[] = [];
    noRemoteContent({ setSpellCheckerEnabled: (on) => calls.push(on) });
    expect(calls).toEqual([false]);
  });
});
