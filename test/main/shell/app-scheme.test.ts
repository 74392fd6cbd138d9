import { describe, expect, it } from 'vitest';
import { APP_SCHEME } from '../../../src/main/shell/app-scheme';
import { APP_ORIGIN } from '../../../src/main/shell/ipc-guard';

describe('the scheme the window loads the renderer from', () => {
  it('is the one APP_ORIGIN names, standard and secure, and keeps V8’s compiled code between starts', () => {
    expect(APP_ORIGIN.startsWith(`${APP_SCHEME.scheme}://`)).toBe(true);
    // Electron's code cache needs both: `codeCache` is ignored on a scheme that is not standard.
    expect(APP_SCHEME.privileges).toMatchObject({ standard: true, secure: true, codeCache: true });
    // Nothing that would weaken the page's CSP or let it act as a web origin it is not.
    expect(APP_SCHEME.privileges).not.toHaveProperty('bypassCSP');
    expect(APP_SCHEME.privileges).not.toHaveProperty('corsEnabled');
  });
});
