/** What the open Chat settings say when another window saved them (ConversationSettings.tsx). */
import { describe, expect, it } from 'vitest';
import { changedElsewhereNote } from '../../src/renderer/components/composer/ConversationSettings';

describe('changedElsewhereNote', () => {
  it('says the change, and names each field the user had changed that keeps theirs', () => {
    expect(changedElsewhereNote([])).toBe('Changed in another window.');
    expect(changedElsewhereNote(['think'])).toBe('Changed in another window. Your think mode is kept here, not the one saved there: Save saves yours.');
    expect(changedElsewhereNote(['prompt', 'think', 'tools'])).toBe(
      'Changed in another window. Your system prompt, think mode and tools choice are kept here, not the ones saved there: Save saves yours.',
    );
  });
});
