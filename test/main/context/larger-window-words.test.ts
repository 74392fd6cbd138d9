/**
 * Why no larger window is offered, under the message box (import words pass): it read "No larger window could be
 * worked out: Details of llama3.2:3b: not found on Ollama.", the inner error pasted in after a second colon.
 */
import { describe, expect, it } from 'vitest';
import { costFailure, largerWindow } from '../../../src/main/context/larger-window';
import type { RoomDeps, ResolvedTarget } from '../../../src/main/context/room-target';
import type { EngineConnection } from '../../../src/main/engine/types';
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

// A phone's line under the message box has no room for the whole reason beside the message's: where the window is
// set outside Firebrand's reach, main says what to do as a clause the reason ends with (window-room.ts).
describe('what to do where no larger window can be offered', () => {
  const deps = {} as RoomDeps;
  const target = (kind: string, aliasWindow?: number): ResolvedTarget => ({ connection: { kind, label: kind } as unknown as EngineConnection, model: 'qwen3:8b', ...(aliasWindow ? { aliasWindow } : {}) });

  it('names Models for an alias, and the -c to restart llama-server with', async () => {
    expect(await largerWindow(deps, target('ollama', 4096), 5000, 4096)).toEqual({
      kind: 'none',
      reason: 'The alias sets this window (4,096 tokens); change it in Models.',
      action: 'change the alias’s window in Models',
    });
    const llama = await largerWindow(deps, target('llama-server'), 5000, 4096);
    expect(llama).toMatchObject({ kind: 'none', action: 'restart llama-server with -c 6144' });
    expect(llama.kind === 'none' && llama.reason).toContain('Restart it with -c 6144 or more.');
    // Nothing to do elsewhere: no clause.
    expect(await largerWindow(deps, target('openai'), 5000, 4096)).toEqual({ kind: 'none', reason: 'This server sets its own context window; Firebrand cannot change it.' });
  });
});
