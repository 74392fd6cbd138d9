/**
 * Why no larger window is offered, under the message box (import words pass): it read "No larger window could be
 * worked out: Details of llama3.2:3b: not found on Ollama.", the inner error pasted in after a second colon.
 */
import { describe, expect, it } from 'vitest';
import { costFailure } from '../../../src/main/context/larger-window';
import { UserFacingError } from '../../../src/main/errors';

describe('why no larger window could be worked out', () => {
  it('says it in one plain sentence, whatever the lookup failed on', () => {
    const notFound = new UserFacingError('not-found', 'Details of llama3.2:3b: not found on Ollama.');
    expect(costFailure(notFound, 'Ollama', 'llama3.2:3b')).toBe('No larger window could be worked out: Ollama has no details of llama3.2:3b.');
    const down = new UserFacingError('server-unreachable', 'Cannot reach Ollama at http://127.0.0.1:11434: connection refused.');
    expect(costFailure(down, 'Home Ollama', 'qwen3:8b')).toBe('No larger window could be worked out while Home Ollama does not answer.');
    expect(costFailure(new Error('the model file is damaged'), 'The built-in engine', 'qwen3:8b')).toBe(
      'No larger window could be worked out. The model file is damaged.',
    );
    expect(costFailure(new Error(''), 'Ollama', 'qwen3:8b')).toBe('No larger window could be worked out.');
  });
});
