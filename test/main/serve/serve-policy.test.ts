/**
 * Issue 15 items 9 and 19, as pure rules: which Host names serve mode answers to, which browser Origins may open
 * a socket (the one the request came in on), and which tokens are long enough.
 */
import { describe, expect, it } from 'vitest';
import { allowedHost, originMatchesHost, requestPath, tokenProblem } from '../../../src/main/serve/serve-policy';

describe('serve-mode access rules', () => {
  it('answers to IP addresses, localhost and allowed names only', () => {
    expect(allowedHost('127.0.0.1:8765', [])).toBe('127.0.0.1:8765');
    expect(allowedHost('192.168.1.5:8765', [])).toBe('192.168.1.5:8765');
    expect(allowedHost('[::1]:8765', [])).toBe('[::1]:8765');
    expect(allowedHost('LOCALHOST:8765', [])).toBe('localhost:8765');
    expect(allowedHost('gpubox.lan:8765', ['gpubox.lan'])).toBe('gpubox.lan:8765');
    for (const bad of [undefined, '', 'evil.example', 'gpubox.lan:8765', '127.0.0.1.nip.io', 'a@127.0.0.1', '127.0.0.1/x', 'x'.repeat(400)]) {
      expect(allowedHost(bad, []), String(bad)).toBeUndefined();
    }
  });

  it('accepts a browser Origin that is the host the request came in on (--host 0.0.0.0 opened by its LAN address)', () => {
    expect(originMatchesHost('http://192.168.1.5:8765', '192.168.1.5:8765')).toBe(true);
    expect(originMatchesHost('http://127.0.0.1:8765', '127.0.0.1:8765')).toBe(true);
    expect(originMatchesHost(undefined, '127.0.0.1:8765')).toBe(true);
    expect(originMatchesHost('http://0.0.0.0:8765', '192.168.1.5:8765')).toBe(false);
    expect(originMatchesHost('http://192.168.1.5:8766', '192.168.1.5:8765')).toBe(false);
    expect(originMatchesHost('null', '127.0.0.1:8765')).toBe(false);
    expect(originMatchesHost('file://', '127.0.0.1:8765')).toBe(false);
    expect(originMatchesHost('http://127.0.0.1:8765/path', '127.0.0.1:8765')).toBe(false);
  });

  it('requires at least 128 bits of URL-safe token', () => {
    expect(tokenProblem('0123456789abcdef0123456789abcdef')).toBeUndefined();
    expect(tokenProblem('AbCdEfGhIjKlMnOpQrStUv')).toBeUndefined();
    expect(tokenProblem('0123456789abcdef0123456789abcde')).toMatch(/124 bits/);
    expect(tokenProblem('hunter2')).toMatch(/42 bits/);
    expect(tokenProblem('with space and plenty of characters here')).toMatch(/only letters, digits/);
  });

  it('reads a request path, or refuses it: bad % escapes, absolute and scheme-relative targets', () => {
    expect(requestPath('/assets/a%20b.js?x=1')).toMatchObject({ path: '/assets/a b.js' });
    for (const bad of ['/%E0%A4%A', '/%', 'http://[zz]/ipc', '//evil.example/x', '*', undefined]) expect(requestPath(bad), String(bad)).toBeUndefined();
  });
});
