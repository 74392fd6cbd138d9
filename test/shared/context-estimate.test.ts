import { describe, expect, it } from 'vitest';
import { addInputs, estimateTokens, IMAGE_TOKEN_BUDGET, imageTokens, measureTurns, MESSAGE_OVERHEAD_TOKENS } from '../../src/shared/context-estimate';

describe('context estimate', () => {
  it('counts characters / 4, a fixed budget per image and a little per message; reasoning costs nothing', () => {
    const input = measureTurns([
      { blocks: [{ type: 'text', text: 'x'.repeat(40) }, { type: 'attachment', id: 'd', kind: 'image', name: 'a.png', mime: 'image/png', size: 99999 }] },
      { blocks: [{ type: 'reasoning', text: 'y'.repeat(4000), origin: 'native' }, { type: 'text', text: 'abcd' }] },
    ]);
    expect(input).toEqual({ chars: 44, images: 1, messages: 2, attachmentTokens: 0 });
    expect(estimateTokens(input)).toBe(11 + IMAGE_TOKEN_BUDGET + 2 * MESSAGE_OVERHEAD_TOKENS);
  });

  it('counts an attachment not measured yet by its size, and adds inputs field by field', () => {
    const a = measureTurns([{ blocks: [{ type: 'attachment', id: 'd', kind: 'text', name: 'a.ts', mime: 'text/plain', size: 400 }] }]);
    expect(addInputs(a, a)).toEqual({ chars: 800, images: 0, messages: 2, attachmentTokens: 0 });
  });

  it('counts a measured attachment by what it costs as sent, not by its size (a 2 MB PDF is its text)', () => {
    const pdf = { type: 'attachment', id: 'p', kind: 'document', name: 'r.pdf', mime: 'application/pdf', size: 2_000_000 } as const;
    const input = measureTurns([{ blocks: [{ type: 'text', text: 'abcd' }, pdf] }], (b) => (b.id === 'p' ? 1234 : undefined));
    expect(input).toEqual({ chars: 4, images: 0, messages: 1, attachmentTokens: 1234 });
    expect(estimateTokens(input)).toBe(1 + 1234 + MESSAGE_OVERHEAD_TOKENS);
  });

  it('prices images per model where the rule is known (Anthropic: width × height / 750), else the fixed budget', () => {
    expect(imageTokens(true, { width: 1000, height: 1000 })).toBe(1334);
    expect(imageTokens(false, { width: 1000, height: 1000 })).toBe(IMAGE_TOKEN_BUDGET);
    expect(imageTokens(true)).toBe(IMAGE_TOKEN_BUDGET);
  });

  it('counts a block whose text is not a string (a hostile row) as nothing, never NaN (issue 15)', () => {
    const hostile = { type: 'text', text: { evil: true } } as unknown as { type: 'text'; text: string };
    expect(measureTurns([{ blocks: [hostile, { type: 'text', text: 'abcd' }] }])).toEqual({ chars: 4, images: 0, messages: 1, attachmentTokens: 0 });
  });
});
