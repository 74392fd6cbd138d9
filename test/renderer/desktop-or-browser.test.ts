/**
 * How the page tells the desktop app from a browser (serve mode): boot finds `window.firebrand` already set by the
 * preload, or makes the serve shim. The export's notice depends on it: the desktop app's download opens a save
 * dialog that may be cancelled, so there the page waits for the shell's word (test/renderer/export-save-dialog.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { boot } from '../../src/renderer/boot';
import { inDesktopApp } from '../../src/renderer/firebrand';
import { buildBridge } from '../../src/shared/bridge';

const globals = globalThis as { window?: unknown };

afterEach(() => {
  delete globals.window;
});

describe('the page knows where it runs', () => {
  it('is a browser where boot made the serve shim, and the desktop app where the preload gave the bridge', () => {
    expect(inDesktopApp()).toBe(false);
    // A browser: no preload, so boot builds the shim (with no token it waits, and says how to get in).
    globals.window = { location: { protocol: 'http:', host: '127.0.0.1:5173', search: '' } };
    boot();
    expect(inDesktopApp()).toBe(false);
    // The desktop app: the preload set window.firebrand before any of the page's code ran.
    const preloaded = buildBridge({ invoke: () => new Promise(() => undefined), subscribe: () => () => undefined });
    globals.window = { firebrand: preloaded, location: { protocol: 'app:', host: 'firebrand', search: '' } };
    boot();
    expect(inDesktopApp()).toBe(true);
  });
});
