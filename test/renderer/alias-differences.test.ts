/** Round 7, engine #3: a save refused as a conflict shows, field by field, what the other tab saved and what is in the form. */
import { describe, expect, it } from 'vitest';
import { aliasDifferences } from '../../src/renderer/components/models/alias-differences';
import type { AliasInput } from '../../src/shared/models';

const SMALL: AliasInput = { name: 'small', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: null };

describe('the differences between two versions of an alias', () => {
  it('names each field that differs, theirs and mine, in words', () => {
    expect(aliasDifferences({ ...SMALL, systemPrompt: 'Be brief.', parameters: { temperature: 0.2 } }, { ...SMALL, systemPrompt: 'Answer in French.', contextWindow: 8192 })).toEqual([
      { field: 'System prompt', theirs: 'Be brief.', mine: 'Answer in French.' },
      { field: 'Parameters', theirs: 'temperature 0.2', mine: 'none' },
      { field: 'Context', theirs: 'the model’s own', mine: '8,192 tokens' },
    ]);
    expect(aliasDifferences(SMALL, SMALL)).toEqual([]);
  });
});
