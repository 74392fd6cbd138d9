import { describe, expect, it } from 'vitest';
import { fromConnection } from '../../../src/main/engine/from-connection';

// A failed answer read "Ollama: Ollama answered HTTP 500…" on the connection named Ollama, and "Behind nginx: The
// server answered HTTP 502…" on an OpenAI-compatible one (the failures hunt).
describe('a failed answer names its connection once', () => {
  it('does not repeat a name the words begin with, and puts the name in place of "The server"', () => {
    expect(fromConnection('Ollama', 'Ollama answered HTTP 500: it failed while answering.')).toBe('Ollama answered HTTP 500: it failed while answering.');
    expect(fromConnection('Behind nginx', 'The server answered HTTP 502 with a web page ("502 Bad Gateway").')).toBe(
      'Behind nginx answered HTTP 502 with a web page ("502 Bad Gateway").',
    );
  });

  it('still says which connection failed where the words do not', () => {
    expect(fromConnection('GPU box', 'Ollama answered HTTP 500: it failed while answering.')).toBe('GPU box: Ollama answered HTTP 500: it failed while answering.');
    expect(fromConnection('GPU box', 'model "qwen3" not found, try pulling it first')).toBe('GPU box: model "qwen3" not found, try pulling it first');
  });
});
