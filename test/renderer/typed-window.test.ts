/**
 * What "Keep this window" says of what was typed (models audit #4: 0, -5, 1.5, abc and 100 did nothing, while the
 * last "Kept …" line stayed as if they had been kept).
 */
import { describe, expect, it } from 'vitest';
import { typedWindow } from '../../src/renderer/components/models/typed-window';

describe('a window typed in a Context window panel', () => {
  it('says why it cannot be a window', () => {
    for (const raw of ['0', '-5', '1.5', 'abc', '100', '255', '1e4', '4096 tokens']) {
      expect(typedWindow(raw)).toEqual({ problem: 'A window is a whole number of tokens, at least 256.' });
    }
    expect(typedWindow('  ')).toEqual({ problem: 'Type a window in tokens first: a whole number, at least 256.' });
  });

  it('takes a whole number of tokens, with or without thousands separators', () => {
    expect(typedWindow('256')).toEqual({ tokens: 256 });
    expect(typedWindow(' 40,960 ')).toEqual({ tokens: 40_960 });
    expect(typedWindow('1 000 000')).toEqual({ tokens: 1_000_000 });
  });
});
