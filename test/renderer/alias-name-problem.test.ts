/**
 * The alias editor refuses, before asking main, a name that Ollama would take for a model's or another alias's
 * (models audit #1: `Qwen3:8B` beside the model `qwen3:8b` was saved, and its "Create in Ollama" wrote over it).
 */
import { describe, expect, it } from 'vitest';
import { aliasNameProblem } from '../../src/renderer/components/models/alias-name-problem';

const MODELS = [{ name: 'qwen3:8b' }, { name: 'coder:latest' }];
const HELPER = { id: 'a1', name: 'helper', materializedDigest: null };

describe('an alias name the editor refuses', () => {
  it('is a model of the connection in another case or with :latest', () => {
    expect(aliasNameProblem('Qwen3:8B', MODELS, [], null)).toBe(
      '“Qwen3:8B” is already the name of a model here (qwen3:8b): an alias of that name would hide it. Choose another name.',
    );
    expect(aliasNameProblem('CODER', MODELS, [], null)).toContain('(coder:latest)');
    expect(aliasNameProblem('qwen3', MODELS, [], null)).toBeNull();
  });

  it('is another alias in another case, but not the alias being edited', () => {
    expect(aliasNameProblem('Helper', MODELS, [HELPER], null)).toBe('An alias named “helper” already exists, and to Ollama “Helper” is the same name. Choose another name.');
    expect(aliasNameProblem('Helper', MODELS, [HELPER], HELPER)).toBeNull();
    expect(aliasNameProblem('HELPER', MODELS, [HELPER, { id: 'a2', name: 'other' }], { id: 'a2', name: 'other', materializedDigest: null })).toContain('“helper” already exists');
  });

  it('is not the alias’s own Ollama copy', () => {
    expect(aliasNameProblem('Coder', MODELS, [], { id: 'a3', name: 'coder', materializedDigest: 'sha256:c0de' })).toBeNull();
  });
});
