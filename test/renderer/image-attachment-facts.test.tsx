/**
 * Images say what they are: a waiting image was a bare thumbnail, so three screenshots could be told apart only by
 * opening each, and what each cost of the window was said nowhere. It shows its name (whole in its hover), its size
 * and, once main has costed it, its tokens as the meter counts them; its remove button names it. A sent image has its
 * name and size under it.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { IMAGE_TOKEN_BUDGET } from '../../src/shared/context-estimate';
import type { AttachmentInspection } from '../../src/shared/ipc';
import type { AttachmentBlock } from '../../src/shared/turn';
import { RemovableThumbView, ThumbnailView } from '../../src/renderer/components/turn/Attachments';
import { imageFacts } from '../../src/renderer/components/turn/attachment-facts';

const shot: AttachmentBlock = { type: 'attachment', id: 'c'.repeat(64), kind: 'image', name: 'screenshot.png', mime: 'image/png', size: 1_250_000 };
const costed = (over: Partial<AttachmentInspection> = {}) => ({
  status: 'done' as const,
  inspection: { tokens: IMAGE_TOKEN_BUDGET, tokensSource: 'estimate' as const, pageCount: null, pageChars: null, textChars: null, pages: null, error: null, image: null, ...over },
});
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const attr = (html: string, selector: RegExp, name: string) => new RegExp(`${name}="([^"]*)"`).exec(selector.exec(html)?.[0] ?? '')?.[1];

describe('a waiting image', () => {
  it('shows its name, its size and its tokens as the meter counts them', () => {
    const html = renderToStaticMarkup(<RemovableThumbView block={shot} cost={costed()} url="blob:x" onRemove={() => undefined} />);
    expect(text(/<span class="thumb-facts">.*?<\/button>/s.exec(html)?.[0] ?? '')).toBe('screenshot.png 1.2 MiB · ~768 tokens , estimated. ×');
    expect(attr(html, /<span class="thumb-name"[^>]*>/, 'title')).toBe('screenshot.png');
  });

  it('scales its tokens by what the server counted for the model, as the meter does', () => {
    expect(imageFacts(shot.size, costed().inspection, 2)).toEqual({ size: '1.2 MiB', tokens: '~1.5K tokens' });
    expect(imageFacts(shot.size, null, 1)).toEqual({ size: '1.2 MiB', tokens: null });
  });

  it('says its size alone until it is costed (no model yet), and names the file on its remove button', () => {
    const html = renderToStaticMarkup(<RemovableThumbView block={shot} cost={{ status: 'reading' }} url="blob:x" onRemove={() => undefined} />);
    expect(text(/<span class="thumb-cost"[^>]*>.*?<\/span><\/span>/s.exec(html)?.[0] ?? '')).toBe('1.2 MiB');
    expect(attr(html, /<button[^>]*class="chip-remove"[^>]*>/, 'aria-label')).toBe('Remove screenshot.png');
  });

  it('says its size and cost with its open button, to a keyboard and a screen reader', () => {
    const html = renderToStaticMarkup(<RemovableThumbView block={shot} cost={costed()} url="blob:x" onRemove={() => undefined} />);
    const ids = attr(html, /<button[^>]*data-testid="attachment-open"[^>]*>/, 'aria-describedby')?.split(' ') ?? [];
    const described = ids.map((id) => text(new RegExp(`<span[^>]*id="${id}"[^>]*>.*?</span></span>`, 's').exec(html)?.[0] ?? `<missing ${id}>`));
    expect(described).toEqual(['1.2 MiB · ~768 tokens , estimated.']);
  });
});

describe('a sent image', () => {
  it('has its name and size under it, and all of it in its hover', () => {
    const long = { ...shot, name: 'Screenshot 2026-12-07 at 10.31.02 - settings page after the update.png' };
    const html = renderToStaticMarkup(<ThumbnailView block={long} cost={costed()} url="blob:x" caption />);
    expect(/<figcaption[^>]*>.*<\/figcaption>/s.exec(html)?.[0].replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')).toBe('|Screenshot 2026-12-07 at 10.31.02 - settings page after|the update.png|1.2 MiB|');
    expect(attr(html, /<figure[^>]*>/, 'title')).toBe(`${long.name} · 1.2 MiB · ~768 tokens`);
  });

  it('has no caption in the message box, where its name is beside it', () => {
    expect(renderToStaticMarkup(<ThumbnailView block={shot} cost={costed()} url="blob:x" caption={false} />)).not.toContain('figcaption');
  });
});
