/** A server address typed without its scheme (taken as http://, what local servers speak) or its port (the kind's usual one). */
import { describe, expect, it } from 'vitest';
import { CONNECTION_KINDS, type ServerKind } from '../../src/shared/connections';
import { isHostAlone, readAddress, schemeWasAssumed, usualPort, withAssumedScheme } from '../../src/shared/server-address';

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
      expect(readAddress('localhost:1234', kind)).toEqual({ address: 'http://localhost:1234', assumed: 'scheme' });
      expect(readAddress('[::1]:8081/v1', kind)).toEqual({ address: 'http://[::1]:8081/v1', assumed: 'scheme' });
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
