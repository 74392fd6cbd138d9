/** A server address typed without its scheme: taken as http://, what local servers speak. */
import { describe, expect, it } from 'vitest';
import { schemeWasAssumed, withAssumedScheme } from '../../src/shared/server-address';

describe('withAssumedScheme', () => {
  it('takes a host and port typed without a scheme as http://', () => {
    expect(withAssumedScheme('localhost:11434')).toBe('http://localhost:11434');
    expect(withAssumedScheme(' 192.168.1.20:8080 ')).toBe('http://192.168.1.20:8080');
    expect(withAssumedScheme('my-box:11434')).toBe('http://my-box:11434');
    expect(withAssumedScheme('gpu.lan:8080/v1')).toBe('http://gpu.lan:8080/v1');
    expect(withAssumedScheme('[::1]:11434')).toBe('http://[::1]:11434');
    expect(schemeWasAssumed('localhost:11434')).toBe(true);
  });

  it('keeps a typed scheme, https included, and leaves what is not an address to be refused', () => {
    expect(withAssumedScheme('https://api.example.com')).toBe('https://api.example.com');
    expect(withAssumedScheme(' http://127.0.0.1:1234 ')).toBe('http://127.0.0.1:1234');
    for (const notAnAddress of ['', 'lmstudio.local', 'localhost', 'not an address', 'ftp://box:21', 'mailto:me@example.com', 'my box:11434', 'box:port']) {
      expect(withAssumedScheme(notAnAddress)).toBe(notAnAddress.trim());
      expect(schemeWasAssumed(notAnAddress)).toBe(false);
    }
  });
});
