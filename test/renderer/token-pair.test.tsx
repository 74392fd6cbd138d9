/**
 * Used/window pairs that never hide over or under (context audit #3), the Make-room card's advice at the latest
 * point (#2), and a file chip scaled as the refusal scales it (#5).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { cutNotEnough } from '../../src/renderer/components/context/cut-advice';
import { FileChipView, shownTokens } from '../../src/renderer/components/turn/Attachments';
import { formatTokenPair } from '../../src/renderer/format';
import type { AttachmentInspection } from '../../src/shared/ipc';

describe('formatTokenPair', () => {
  it('writes exact grouped digits near the window, where "8K / 8K" hid which side it is on', () => {
    expect(formatTokenPair(8191, 8192)).toBe('8,191 / 8,192');
    expect(formatTokenPair(8192, 8192)).toBe('8,192 / 8,192');
    expect(formatTokenPair(8300, 8192)).toBe('8,300 / 8,192');
    expect(formatTokenPair(7500, 8192)).toBe('7,500 / 8,192');
  });

  it('writes K far from the window, and M for a million tokens and more', () => {
    expect(formatTokenPair(3584, 8192)).toBe('3.5K / 8K');
    expect(formatTokenPair(20000, 8192)).toBe('20K / 8K');
    expect(formatTokenPair(200_000, 1_101_005)).toBe('195K / 1.05M');
    expect(formatTokenPair(4096, 1024 ** 2)).toBe('4K / 1M');
    expect(formatTokenPair(1_101_005, 1_101_006)).toBe('1,101,005 / 1,101,006');
  });
});

describe('the Make-room card’s advice when a cut is not enough', () => {
  it('says move the point later only where a later point exists', () => {
    expect(cutNotEnough({ fitsDropped: true, fitsSummarized: true, latest: true }, 'dropped')).toBeNull();
    expect(cutNotEnough({ fitsDropped: false, fitsSummarized: false, latest: false }, 'dropped')).toMatch(/move the point later/);
    const latest = cutNotEnough({ fitsDropped: false, fitsSummarized: false, latest: true }, 'summarized');
    expect(latest).not.toMatch(/move the point later/);
    expect(latest).toMatch(/no later point/);
  });
});

describe('a file chip’s count', () => {
  const inspection: AttachmentInspection = { tokens: 1200, tokensSource: 'estimate', pageCount: null, pageChars: null, textChars: 4800, pages: null, image: null, error: null };

  it('is scaled by the model’s ratio as the refusal’s parts are; a server count stays as counted', () => {
    expect(shownTokens(inspection, 3.41)).toBe(4092);
    expect(shownTokens({ ...inspection, tokensSource: 'exact' }, 3.41)).toBe(1200);
    const html = renderToStaticMarkup(<FileChipView block={{ type: 'attachment', id: 'a'.repeat(64), kind: 'text', name: 'notes.txt', mime: 'text/plain', size: 4800 }} cost={{ status: 'done', inspection }} ratio={3.41} />);
    expect(html).toContain('~4K tokens');
    expect(html).toContain('data-tokens-shown="4092"');
  });
});
