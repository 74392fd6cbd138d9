import { beforeEach, describe, expect, it } from 'vitest';
import {
  dropUnsavedChatSettings,
  keepUnsavedChatSettings,
  newChatStartedAs,
  noteUnsavedTyping,
  resetUnsavedChatSettings,
  takeNewChatStart,
  unsavedChatSettings,
} from '../../src/renderer/store/unsaved-chat-settings';
import { fakeLocalStorage } from './helpers/local-storage';

const PIRATE = { prompt: 'Answer as a pirate.', think: '' as const, tools: true };

describe('chat settings typed and not saved', () => {
  beforeEach(() => {
    fakeLocalStorage();
    resetUnsavedChatSettings();
  });

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

  // The last closing note's gaps: they lived in the page, and a reload or a restart lost what was typed.
  it('come back after a reload (a new page reading storage), until dropped', () => {
    keepUnsavedChatSettings('c1', PIRATE);
    resetUnsavedChatSettings();
    expect(unsavedChatSettings('c1')).toEqual(PIRATE);
    dropUnsavedChatSettings('c1');
    resetUnsavedChatSettings();
    expect(unsavedChatSettings('c1')).toBeUndefined();
  });

  it('typed in a popover still open come back after a reload, and are not offered before it closes', () => {
    noteUnsavedTyping('c1', PIRATE);
    expect(unsavedChatSettings('c1')).toBeUndefined();
    resetUnsavedChatSettings();
    expect(unsavedChatSettings('c1')).toEqual(PIRATE);
  });

  it("a new chat's, kept or being typed, go with the chat its first message creates across a reload too", () => {
    keepUnsavedChatSettings(null, PIRATE);
    noteUnsavedTyping(null, { ...PIRATE, prompt: 'Answer as a parrot.' });
    newChatStartedAs('c1');
    resetUnsavedChatSettings();
    expect(unsavedChatSettings('c1')?.prompt).toBe('Answer as a parrot.');
    expect(unsavedChatSettings(null)).toBeUndefined();
  });

  it("leave another tab's alone: each change writes its own chat's over what storage holds now", () => {
    keepUnsavedChatSettings('c1', PIRATE);
    // Another tab, started before, keeps c2's: c1's stays.
    const other = { ...PIRATE, tools: false };
    const stored = JSON.parse(localStorage.getItem('firebrand.unsaved-chat-settings') ?? '{}') as Record<string, unknown>;
    localStorage.setItem('firebrand.unsaved-chat-settings', JSON.stringify({ ...stored, c2: other }));
    dropUnsavedChatSettings('c3');
    resetUnsavedChatSettings();
    expect(unsavedChatSettings('c1')).toEqual(PIRATE);
    expect(unsavedChatSettings('c2')).toEqual(other);
  });

  it('skip what storage holds that is not theirs (edited by hand, another version)', () => {
    localStorage.setItem('firebrand.unsaved-chat-settings', JSON.stringify({ c1: { prompt: 3 }, c2: PIRATE }));
    expect(unsavedChatSettings('c1')).toBeUndefined();
    expect(unsavedChatSettings('c2')).toEqual(PIRATE);
    localStorage.setItem('firebrand.unsaved-chat-settings', '{not json');
    resetUnsavedChatSettings();
    expect(unsavedChatSettings('c2')).toBeUndefined();
  });
});
