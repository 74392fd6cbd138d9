import { beforeEach, describe, expect, it } from 'vitest';
import {
  dropUnsavedChatSettings,
  keepUnsavedChatSettings,
  newChatStartedAs,
  resetUnsavedChatSettings,
  takeNewChatStart,
  unsavedChatSettings,
} from '../../src/renderer/store/unsaved-chat-settings';

const PIRATE = { prompt: 'Answer as a pirate.', think: '' as const, tools: true };

describe('chat settings typed and not saved', () => {
  beforeEach(() => resetUnsavedChatSettings());

  it("go with the chat a new chat's first message creates, and the next new chat starts without them", () => {
    keepUnsavedChatSettings(null, PIRATE);
    newChatStartedAs('c1');
    expect(unsavedChatSettings('c1')).toEqual(PIRATE);
    expect(unsavedChatSettings(null)).toBeUndefined();
    // Said once, to the popover as that chat opens; a later chat opened is not taken for it.
    expect(takeNewChatStart()).toBe('c1');
    expect(takeNewChatStart()).toBeNull();
  });

  it("leave another chat's alone, and Cancel (drop) forgets them", () => {
    keepUnsavedChatSettings('c0', { ...PIRATE, tools: false });
    newChatStartedAs('c1');
    expect(unsavedChatSettings('c1')).toBeUndefined();
    expect(unsavedChatSettings('c0')?.tools).toBe(false);
    dropUnsavedChatSettings('c0');
    expect(unsavedChatSettings('c0')).toBeUndefined();
  });
});
