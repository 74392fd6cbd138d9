import { describe, expect, it } from 'vitest';
import { fromConnection, legFailure } from '../../../src/main/engine/from-connection';
import { toLegError } from '../../../src/main/leg/http';

// A failed answer read "Ollama: Ollama answered HTTP 500…" on the connection named Ollama, and "Behind nginx: The
// server answered HTTP 502…" on an OpenAI-compatible one (the failures hunt).
describe('a failed answer names its connection once', () => {
  it('does not repeat a name the words begin with, and puts the name in place of "The server"', () => {
    expect(fromConnection('Ollama', 'Ollama answered HTTP 500: it failed while answering.')).toBe('Ollama answered HTTP 500: it failed while answering.');
    expect(fromConnection('Behind nginx', 'The server answered HTTP 502 with a web page ("502 Bad Gateway").')).toBe(
      'Behind nginx answered HTTP 502 with a web page ("502 Bad Gateway").',
    );
  });

  // A built-in engine failure read "Built-in (llama.cpp): The built-in engine failed.": the engine named twice.
  it("keeps the built-in engine's own words, which name it, and its reason after its name", () => {
    expect(fromConnection('Built-in (llama.cpp)', 'The built-in engine stopped unexpectedly (signal SIGKILL). What arrived is kept.')).toBe(
      'The built-in engine stopped unexpectedly (signal SIGKILL). What arrived is kept.',
    );
    expect(fromConnection('Built-in (llama.cpp)', 'The built-in engine failed (500).')).toBe('The built-in engine failed (500).');
    expect(fromConnection('Built-in (llama.cpp)', 'The prompt is 5000 tokens and the context window is 4096: nothing was generated.')).toBe(
      'Built-in (llama.cpp): The prompt is 5000 tokens and the context window is 4096: nothing was generated.',
    );
  });

  it('still says which connection failed where the words do not', () => {
    expect(fromConnection('GPU box', 'Ollama answered HTTP 500: it failed while answering.')).toBe('GPU box: Ollama answered HTTP 500: it failed while answering.');
    expect(fromConnection('GPU box', 'model "qwen3" not found, try pulling it first')).toBe('GPU box: model "qwen3" not found, try pulling it first');
  });
});

// An answer's leg failures said "The server at http://127.0.0.1:… did not answer in time": they name the connection.
describe("a leg failure names the connection, not the server's address", () => {
  const named = (code: string) => legFailure(toLegError(Object.assign(new Error('x'), { code }), 'http://127.0.0.1:11434'), 'GPU box', 'http://127.0.0.1:11434');
  it('says which connection timed out, broke or cannot be reached', () => {
    expect(named('UND_ERR_HEADERS_TIMEOUT')).toBe('GPU box did not answer in time.');
    expect(named('UND_ERR_BODY_TIMEOUT')).toBe('GPU box stopped sending for too long; the stream was given up.');
    expect(named('ECONNRESET')).toBe('The connection to GPU box broke (ECONNRESET).');
    expect(named('ECONNREFUSED')).toBe('Cannot reach GPU box at http://127.0.0.1:11434. Is it running? Start it, or change its address in Settings.');
  });

  // Test connection is pressed in Settings: "…change its address in Settings" told the user to go where they were.
  it('says where to fix the address without "in Settings" when asked from Settings', () => {
    const refused = toLegError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), 'http://127.0.0.1:11434');
    expect(legFailure(refused, 'GPU box', 'http://127.0.0.1:11434', { inSettings: true })).toBe('Cannot reach GPU box at http://127.0.0.1:11434. Is it running? Start it, or change its address here.');
  });

  it('keeps the address where no connection is named (Test connection, a pull)', () => {
    expect(toLegError(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), 'http://127.0.0.1:11434').message).toBe('The server at http://127.0.0.1:11434 did not answer in time.');
  });
});
