import { describe, it, expect } from 'vitest';
import { ollamaDialect } from '../../../../src/main/dialects/ollama';

describe('ollama errorMessage', () => {
  it("returns the server's own message from a JSON error body", () => {
    expect(ollamaDialect.errorMessage(404, '{"error":"model \\"qwen9:1b\\" not found, try pulling it first"}')).toBe(
      'model "qwen9:1b" not found, try pulling it first',
    );
    expect(ollamaDialect.errorMessage(400, '{"error":"invalid options: num_ctx"}\n')).toBe('invalid options: num_ctx');
  });

  it('shows a short plain-text body, and names the status when there is nothing useful', () => {
    expect(ollamaDialect.errorMessage(502, 'bad gateway')).toBe('bad gateway');
    expect(ollamaDialect.errorMessage(500, '')).toBe('Ollama answered HTTP 500: it failed while answering. Try again; if it goes on, see its log.');
    expect(ollamaDialect.errorMessage(502, '<html><body>nginx</body></html>')).toBe(
      'Ollama answered HTTP 502 with a web page: a proxy in front of it got no answer from it. Is the server running?',
    );
    expect(ollamaDialect.errorMessage(404, '')).toBe('Ollama answered HTTP 404 (not found: is the model pulled and the URL right?).');
    expect(ollamaDialect.errorMessage(418, '')).toBe('Ollama answered HTTP 418.');
    expect(ollamaDialect.errorMessage(500, 'x'.repeat(1000)).length).toBeLessThan(310);
  });
});
