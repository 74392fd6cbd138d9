/**
 * Issue 9: the shell's frame check and link policy (src/main/shell/ipc-guard.ts), without Electron. A call from
 * a frame that is not the app's main frame is refused and logged, and no handler runs; only http(s) links
 * leave the app.
 */
import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, guardInvoke, isAppFrame, linkPolicy, type FrameLike } from '../../../src/main/shell/ipc-guard';
import { createDispatcher, type InvokeHandlers } from '../../../src/main/ipc/dispatch';

const frame = (url: string): FrameLike => ({ url });

/** A dispatcher whose every handler records that it ran: nothing may run for a refused call. */
function spyDispatcher() {
  const ran: string[] = [];
  const handlers = new Proxy({} as InvokeHandlers, {
    get: (_t, channel: string) => () => {
      ran.push(channel);
      return { ollamaUrl: 'http://127.0.0.1:11434' };
    },
  });
  const logs: string[] = [];
  return { ran, logs, dispatcher: createDispatcher(handlers, (m) => logs.push(m)) };
}

describe('isAppFrame', () => {
  const main = frame(`${APP_ORIGIN}/index.html`);

  it('accepts only the window main frame showing an app:// page', () => {
    expect(isAppFrame(main, main)).toBe(true);
  });

  it.each([
    ['a subframe of the app origin', frame(`${APP_ORIGIN}/index.html`), main],
    ['the main frame after navigating away', frame('https://evil.example/'), 'self'],
    ['a lookalike origin', frame('app://firebrand.evil/index.html'), 'self'],
    ['an origin prefix trick', frame('app://firebrandx/index.html'), 'self'],
    ['a file: page', frame('file:///etc/passwd'), 'self'],
    ['a data: page', frame('data:text/html,<script>1</script>'), 'self'],
    ['the bare origin without a path', frame(APP_ORIGIN), 'self'],
    ['a frame that is gone', null, main],
    ['no main frame (window closing)', main, null],
  ] as const)('refuses %s', (_what, sender, mainFrame) => {
    expect(isAppFrame(sender, mainFrame === 'self' ? sender : mainFrame)).toBe(false);
  });
});

describe('guardInvoke', () => {
  it('refuses and logs a call from a foreign frame; no handler runs', async () => {
    const { ran, logs, dispatcher } = spyDispatcher();
    const main = frame(`${APP_ORIGIN}/index.html`);
    const sub = frame('https://evil.example/ad');
    const result = await guardInvoke({ channel: 'settings:update', payload: { theme: 'dark' }, senderFrame: sub, mainFrame: main }, dispatcher, (m) => logs.push(m));
    expect(result).toEqual({ ok: false, error: { code: 'forbidden', message: 'Refused.' } });
    expect(ran).toEqual([]);
    expect(logs).toEqual(["ipc: refused settings:update from a frame that is not the app's main frame (https://evil.example/ad)"]);
    const gone = await guardInvoke({ channel: 'settings:get', payload: {}, senderFrame: null, mainFrame: main }, dispatcher, (m) => logs.push(m));
    expect(gone.ok).toBe(false);
    expect(logs.at(-1)).toContain('(gone)');
    expect(ran).toEqual([]);
  });

  it('passes the app frame through to the dispatcher, which still refuses unknown channels and bad payloads', async () => {
    const { ran, logs, dispatcher } = spyDispatcher();
    const main = frame(`${APP_ORIGIN}/index.html`);
    const call = (channel: string, payload: unknown) => guardInvoke({ channel, payload, senderFrame: main, mainFrame: main }, dispatcher, (m) => logs.push(m));
    expect(await call('settings:get', {})).toMatchObject({ ok: true });
    expect(await call('shell:exec', { cmd: 'rm -rf /' })).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(await call('settings:update', { ollamaUrl: 'file:///etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect(await call('settings:update', { theme: 'dark', __proto__: { admin: true }, extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect(ran).toEqual(['settings:get']);
    expect(logs).toHaveLength(3);
  });
});

describe('linkPolicy', () => {
  it.each([
    ['https://example.com/a?b=c#d', 'https://example.com/a?b=c#d'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/'],
    ['HTTPS://Example.COM/Path', 'https://example.com/Path'],
    ['  https://example.com/x  ', 'https://example.com/x'],
  ])('opens %s in the system browser', (raw, url) => {
    expect(linkPolicy(raw)).toEqual({ action: 'open-external', url });
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'app://firebrand/index.html',
    'vbscript:msgbox(1)',
    'ms-msdt:/id PCWDiagnostic',
    'smb://attacker/share',
    'mailto:a@b.c',
    'about:blank',
    'blob:app://firebrand/1234',
    '//evil.example/path',
    '/relative/path',
    'https://user:pass@evil.example/',
    'http://',
    'not a url',
    '',
  ])('keeps %j inside (denied)', (raw) => {
    expect(linkPolicy(raw)).toEqual({ action: 'deny' });
  });
});
