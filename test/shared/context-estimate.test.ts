import { describe, expect, it } from 'vitest';
import { addInputs, estimateTokens, IMAGE_TOKEN_BUDGET, measureTurns, MESSAGE_OVERHEAD_TOKENS } from '../../src/shared/context-estimate';

describe('context estimate', () => {
  it('counts characters / 4, a fixed budget per image and a little per message; reasoning costs nothing', () => {
    const input = measureTurns([
      { blocks: [{ type: 'text', text: 'x'.repeat(40) }, { type: 'attachment', id: 'd', kind: 'image', name: 'a.png', mime: 'image/png', size: 99999 }] },
      { blocks: [{ type: 'reasoning', text: 'y'.repeat(4000), origin: 'native' }, { type: 'text', text: 'abcd' }] },
    ]);
    expect(input).toEqual({ chars: 44, images: 1, messages: 2 });
    expect(estimateTokens(input)).toBe(11 + IMAGE_TOKEN_BUDGET + 2 * MESSAGE_OVERHEAD_TOKENS);
  });

  it('counts a text attachment by its size, and adds inputs field by field', () => {
    const a = measureTurns([{ blocks: [{ type: 'attachment', id: 'd', kind: 'text', name: 'a.ts', mime: 'text/plain', size: 400 }] }]);
    expect(addInputs(a, a)).toEqual({ chars: 800, images: 0, messages: 2 });
  });

  it('counts a block whose text is not a string (a hostile row) as nothing, never NaN (issue 15)', () => {
    const hostile = { type: 'text', text: { evil: true } } as unknown as { type: 'text'; text: string };
    expect(measureTurns([{ blocks: [hostile, { type: 'text', text: 'abcd' }] }])).toEqual({ chars: 4, images: 0, messages: 1 });
  });
});
