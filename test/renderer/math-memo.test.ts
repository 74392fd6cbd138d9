import { describe, expect, it } from 'vitest';
import { TYPESET_MEMO, typesetMemoSize, typesetTex } from '../../src/renderer/markdown/math';
import { enableMath, markdownToHtml } from '../../src/renderer/markdown/to-html';
import { mathPlugin } from '../../src/renderer/markdown/math';

describe('the typeset formulas kept for streaming answers', () => {
  it('stay within a bound of what a growing tail holds, however many formulas a session typesets', () => {
    enableMath(mathPlugin);
    // A long session of maths answers: 1,500 different formulas (about 4 MB of KaTeX HTML). Before, the memo kept up
    // to 4 million characters of it for as long as the page lived.
    let typesetChars = 0;
    for (let i = 0; i < 1500; i++) {
      typesetChars += typesetTex(`\\sum_{k=0}^{${i}} \\frac{x_k^2 + ${i}}{\\sqrt{k + 1}} = \\int_0^{${i}} f(t)\\,dt`, { displayMode: i % 2 === 0 }).length;
      const { formulas, chars } = typesetMemoSize();
      expect(formulas).toBeLessThanOrEqual(TYPESET_MEMO.formulas);
      expect(chars).toBeLessThanOrEqual(TYPESET_MEMO.chars);
    }
    expect(typesetChars).toBeGreaterThan(2_000_000);
    expect(typesetMemoSize().chars).toBeLessThanOrEqual(1_000_000);
    // What a tail holds is still kept: a list of steps with a formula each, typeset once and then from the memo.
    const steps = Array.from({ length: 100 }, (_, i) => `${i + 1}. Then $a_{${i}} = \\frac{${i}}{n}$ holds.`).join('\n');
    const first = markdownToHtml(steps);
    const before = typesetMemoSize();
    expect(markdownToHtml(`${steps}\n\nAnd`)).toContain(first.slice(0, 200));
    expect(typesetMemoSize().formulas).toBe(before.formulas);
  });
});
