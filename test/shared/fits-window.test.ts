/**
 * The one "fits" rule and the refusal's parts and ways (context audit #1, #2, #4, #5): the meter, Send, main's
 * preflight and the Make-room plan all ask `fitsWindow`, so a prompt of exactly the window is over everywhere.
 */
import { describe, expect, it } from 'vitest';
import { calibratedTokens, fitsWindow } from '../../src/shared/context-estimate';
import { contextRefusedMeta, contextRefusedText, isRefusedAnswer, refusalPartsText, roomWays } from '../../src/shared/system-turns';

describe('fitsWindow', () => {
  it('fits only while at least one token is left for the answer; no window known: nothing refused', () => {
    expect(fitsWindow(8191, 8192)).toBe(true);
    expect(fitsWindow(8192, 8192)).toBe(false);
    expect(fitsWindow(9000, 8192)).toBe(false);
    expect(fitsWindow(1e9, undefined)).toBe(true);
    expect(fitsWindow(1e9, null)).toBe(true);
  });

  it('scales an estimate to the model’s tokens with one rounding (chips and refusals say the same)', () => {
    expect(calibratedTokens(1000, 1)).toBe(1000);
    expect(calibratedTokens(1000, 3.41)).toBe(3410);
    expect(calibratedTokens(3, 1.5)).toBe(5);
  });
});

describe('a refusal says what takes the room, and which ways apply', () => {
  const parts = { tools: 2500, system: 40, message: 12, files: 3000, earlier: 800 };

  it('names the tool definitions, the system prompt, the message and its files, with their tokens', () => {
    expect(refusalPartsText(parts)).toBe('the tool definitions 2500, the system prompt 40, your message 12 and its files 3000 and the earlier turns 800');
    expect(refusalPartsText({ system: 10, message: 5 })).toBe('the system prompt 10 and your message 5');
    const text = contextRefusedText({ estimate: 6352, window: 4096, model: 'm', largest: [], parts });
    expect(text).toContain('Of the 6352: the tool definitions 2500, the system prompt 40, your message 12 and its files 3000');
  });

  it('offers tools off where their definitions are a large part, files where there are some, a later point where earlier turns exist', () => {
    expect(roomWays(parts, 6352, 4096, true)).toEqual(['tools-off', 'remove-files', 'later-point', 'larger-window']);
    // Tools of 100 in a 6,000-token request that does not fit without them: not the way on.
    expect(roomWays({ tools: 100, message: 5900 }, 6000, 4096, false)).toEqual([]);
    // Small tools whose removal alone makes it fit: offered.
    expect(roomWays({ tools: 300, message: 3900 }, 4200, 4096, false)).toEqual(['tools-off']);
  });

  it('keeps the parts and ways through a stored meta; a row from before has neither', () => {
    const meta = { estimate: 6352, window: 4096, model: 'm', largest: [], parts: { ...parts }, ways: ['tools-off', 'bogus'] };
    expect(contextRefusedMeta(meta)).toMatchObject({ parts, ways: ['tools-off'] });
    const old = contextRefusedMeta({ estimate: 1, window: 1, model: 'm', largest: [] })!;
    expect(old.parts).toBeUndefined();
    expect(old.ways).toBeUndefined();
  });

  it('marks the answer a refusal ended as no failed answer', () => {
    expect(isRefusedAnswer({ role: 'assistant', status: 'error', meta: { refused: true } })).toBe(true);
    expect(isRefusedAnswer({ role: 'assistant', status: 'error', meta: {} })).toBe(false);
  });
});
