/**
 * The meter's line for a recommended window: "32,768 tokens fit in system memory." said again what the numbers and
 * "recommended for your system memory" beside them said, on a line of its own at 390 px (the built-in engine on the
 * CPU; the GPU's the same). A note after it is still shown, and the whole stays in the title.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ContextMeter } from '../../src/renderer/components/composer/ContextMeter';

describe("the meter's reason for a recommended window", () => {
  it('is not shown where it only says the window fits, as the label beside the numbers does', () => {
    for (const [memory, reason] of [['system', '32,768 tokens fit in system memory.'], [undefined, '43,008 tokens fit on the GPU.']] as const) {
      const html = renderToStaticMarkup(<ContextMeter estimate={1500} window={32768} source="recommended" memory={memory} reason={reason} />);
      expect(html).not.toContain('data-testid="context-reason"');
      expect(html).not.toContain('tabindex');
      expect(html).toContain(`title="About 1,500 of 32,768 tokens of the context window (recommended for your ${memory === 'system' ? 'system memory' : 'GPU'}): ${reason.slice(0, -1)}.`);
    }
  });

  it('shows the note that follows it', () => {
    const html = renderToStaticMarkup(<ContextMeter estimate={1500} window={32768} source="recommended" reason="32,768 tokens fit on the GPU. A q8_0 cache needs flash attention; counted as f16." />);
    expect(html).toMatch(/data-testid="context-reason">A q8_0 cache needs flash attention; counted as f16\.</);
  });

  it('shows a reason of another kind whole', () => {
    const html = renderToStaticMarkup(<ContextMeter estimate={1500} window={4096} source="recommended" reason="Does not fit on the GPU: less than 2048 tokens of context would remain." />);
    expect(html).toContain('data-testid="context-reason">Does not fit on the GPU: less than 2048 tokens of context would remain.<');
  });
});
