/** A server address typed without its scheme (taken as http://, what local servers speak) or its port (the kind's usual one). */
import { describe, expect, it } from 'vitest';
import { CONNECTION_KINDS, type ServerKind } from '../../src/shared/connections';
import { isHostAlone, readAddress, schemeAssumedWords, schemeWasAssumed, usualPort, withAssumedScheme } from '../../src/shared/server-address';

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

// A host typed alone ("localhost", "192.168.1.20", "gpu-box.local") was refused, its port "not guessed", though the
// form knows the connection's kind: Ollama listens on 11434 and llama-server on 8080 unless told another.
describe('a host typed alone, for a kind with a usual port', () => {
  const cases: [string, string, string][] = [
    ['ollama', 'localhost', 'http://localhost:11434'],
    ['llama-server', 'localhost', 'http://localhost:8080'],
    ['ollama', '192.168.1.20', 'http://192.168.1.20:11434'],
    ['llama-server', '10.0.0.7', 'http://10.0.0.7:8080'],
    ['ollama', '[::1]', 'http://[::1]:11434'],
    ['llama-server', '[fe80::1]', 'http://[fe80::1]:8080'],
    ['ollama', 'gpu-box.local', 'http://gpu-box.local:11434'],
    ['llama-server', 'llm.home.arpa', 'http://llm.home.arpa:8080'],
    ['llama-server', 'gpu-box.local/v1', 'http://gpu-box.local:8080/v1'],
    ['ollama', 'proxy.lan/ollama/', 'http://proxy.lan:11434/ollama/'],
    ['ollama', '  localhost  ', 'http://localhost:11434'],
    ['llama-server', '\t192.168.1.20 ', 'http://192.168.1.20:8080'],
  ];
  it.each(cases)('%s: %j is saved as %s, with the scheme and the port assumed', (kind, typed, saved) => {
    expect(readAddress(typed, kind as ServerKind)).toEqual({ address: saved, assumed: 'scheme-and-port' });
    expect(withAssumedScheme(typed, kind as ServerKind)).toBe(saved);
    expect(schemeWasAssumed(typed, kind as ServerKind)).toBe(true);
  });

  it('is left to be refused for a kind with no usual port, and for an MCP server (no kind)', () => {
    for (const kind of ['openai-compatible', 'anthropic', undefined] as const) {
      for (const typed of ['localhost', '192.168.1.20', '[::1]', 'gpu-box.local', 'gpu-box.local/v1', ' localhost ']) {
        expect(readAddress(typed, kind)).toEqual({ address: typed.trim(), assumed: null });
        expect(isHostAlone(typed)).toBe(true);
      }
    }
  });

  it('keeps a typed port or scheme for every kind: only the scheme is assumed, or nothing', () => {
    for (const kind of CONNECTION_KINDS) {
      // Anthropic's API is https only (below): every other kind's host and port is http://.
      const scheme = kind === 'anthropic' ? { scheme: 'https', assumed: 'https' } : { scheme: 'http', assumed: 'scheme' };
      expect(readAddress('localhost:1234', kind)).toEqual({ address: `${scheme.scheme}://localhost:1234`, assumed: scheme.assumed });
      expect(readAddress('[::1]:8081/v1', kind)).toEqual({ address: `${scheme.scheme}://[::1]:8081/v1`, assumed: scheme.assumed });
      // A scheme typed keeps its meaning: http://host is port 80, https://host 443.
      expect(readAddress('http://gpu-box.local', kind)).toEqual({ address: 'http://gpu-box.local', assumed: null });
      expect(readAddress(' https://api.example.com ', kind)).toEqual({ address: 'https://api.example.com', assumed: null });
    }
  });

  it('leaves what is not a host alone as typed, for every kind', () => {
    for (const kind of CONNECTION_KINDS) {
      for (const notAHost of ['', '   ', 'not an address', 'gpu box.local', '::1', '-box', 'box-', 'gpu-box.local.', 'box_1', 'ftp://box', '/v1', 'box:port']) {
        expect(readAddress(notAHost, kind)).toEqual({ address: notAHost.trim(), assumed: null });
        expect(isHostAlone(notAHost)).toBe(false);
      }
    }
  });

  it('names the usual port of the kinds that have one', () => {
    expect(usualPort('ollama')).toEqual({ port: 11434, server: 'Ollama' });
    expect(usualPort('llama-server')).toEqual({ port: 8080, server: 'llama-server' });
    expect(usualPort('openai-compatible')).toBeUndefined();
    expect(usualPort('anthropic')).toBeUndefined();
  });
});

// "api.anthropic.com:443" was saved as http://api.anthropic.com:443: plain http to https's port, for an API that
// answers https only.
describe('https assumed', () => {
  it('for a host typed with port 443, of any kind or none (an MCP server), saved without the port https implies', () => {
    for (const kind of [...CONNECTION_KINDS, undefined]) {
      expect(readAddress('api.anthropic.com:443', kind)).toEqual({ address: 'https://api.anthropic.com', assumed: 'https' });
      expect(readAddress(' gateway.example.com:443/ollama ', kind)).toEqual({ address: 'https://gateway.example.com/ollama', assumed: 'https' });
      expect(schemeWasAssumed('gpu-box.lan:443', kind)).toBe(true);
    }
    expect(schemeAssumedWords('api.anthropic.com:443', 'ollama')).toBe('an address typed with port 443 and without http:// or https:// is taken as https://, which that port is for');
  });

  it("for any host and port typed for Anthropic, whose API is https only; other kinds' stay http://", () => {
    expect(readAddress('gateway.example.com:8443/anthropic', 'anthropic')).toEqual({ address: 'https://gateway.example.com:8443/anthropic', assumed: 'https' });
    expect(readAddress('gateway.example.com:8443', 'openai-compatible')).toEqual({ address: 'http://gateway.example.com:8443', assumed: 'scheme' });
    expect(schemeAssumedWords('gateway.example.com:8443', 'anthropic')).toBe("an Anthropic address typed without https:// is taken as https://, the only one Anthropic's API answers");
    expect(schemeAssumedWords('localhost:11434', 'ollama')).toBe('an address typed without http:// or https:// is taken as http://, which local servers speak');
    // Typed with its scheme, it is kept: http:// to port 443 included.
    expect(readAddress('http://box.lan:443', 'anthropic')).toEqual({ address: 'http://box.lan:443', assumed: null });
    expect(schemeAssumedWords('https://api.anthropic.com', 'anthropic')).toBeNull();
  });
});
