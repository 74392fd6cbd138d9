import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ThinkingBlock } from '../../src/renderer/components/turn/ThinkingBlock';
import { noteTurnPart } from '../../src/renderer/store/turn-timings';

const summary = (html: string) => /<summary[^>]*>([^<]*)<\/summary>/.exec(html)?.[1];

// Before: once the run ended, a run that streamed here said the page's clock (from its first part reaching the page
// to the answer's, 12 s here); after a reload, main's saved figure (3 s): two numbers for one run.
describe('"Thought for N s"', () => {
  it('is the figure main saved with the answer, the same whether the run streamed here or was loaded', () => {
    noteTurnPart('streamed', { type: 'reasoning-start', id: 'r', origin: 'native' }, Date.now() - 20_000);
    noteTurnPart('streamed', { type: 'text-start', id: 't' }, Date.now() - 8_000);
    const block = (turnId: string, savedMs?: number) => summary(renderToStaticMarkup(<ThinkingBlock turnId={turnId} text="hm" ordinal={0} active={false} savedMs={savedMs} />));
    // The run ended, main's saved turn not here yet: no figure that the saved one would replace a moment later.
    expect(block('streamed')).toBe('Thoughts');
    expect(block('streamed', 3200)).toBe('Thought for 3 s');
    expect(block('loaded-later', 3200)).toBe('Thought for 3 s');
  });

  // Before: "Thought for 1 s" for any run under a second (the live count's floor of 1), 80 ms included.
  it('says a run under a second took under a second, and a longer one its seconds', () => {
    const block = (savedMs: number) => summary(renderToStaticMarkup(<ThinkingBlock turnId="quick" text="hm" ordinal={0} active={false} savedMs={savedMs} />));
    expect(block(80)).toBe('Thought for under a second');
    expect(block(0)).toBe('Thought for under a second');
    expect(block(999)).toBe('Thought for under a second');
    expect(block(1000)).toBe('Thought for 1 s');
    expect(block(1499)).toBe('Thought for 1 s');
    expect(block(62_400)).toBe('Thought for 62 s');
  });

  it("counts up by the page's clock while the run grows", () => {
    noteTurnPart('growing', { type: 'reasoning-start', id: 'r', origin: 'native' }, Date.now() - 5_000);
    expect(summary(renderToStaticMarkup(<ThinkingBlock turnId="growing" text="hm" ordinal={0} active />))).toBe('Thinking… 5 s');
  });
});
