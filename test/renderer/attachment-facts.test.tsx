/**
 * What a file's chip said on hover alone (keyboard and screen-reader pass on attachments): its preview shows it as
 * text, in the hover's words, and the chip's name button is described by what it opens and what the file costs.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AttachmentInspection } from '../../src/shared/ipc';
import type { AttachmentBlock } from '../../src/shared/turn';
import { previewFacts } from '../../src/renderer/components/turn/AttachmentPreview';
import { FileChipView } from '../../src/renderer/components/turn/Attachments';

const pdf: AttachmentBlock = { type: 'attachment', id: 'a'.repeat(64), kind: 'document', name: 'report.pdf', mime: 'application/pdf', size: 20_000 };
const csv: AttachmentBlock = { type: 'attachment', id: 'b'.repeat(64), kind: 'text', name: 'clients.csv', mime: 'text/csv', size: 42 };
const photo: AttachmentBlock = { type: 'attachment', id: 'c'.repeat(64), kind: 'image', name: 'garden.jpg', mime: 'image/jpeg', size: 4_000_000 };
const inspection = (over: Partial<AttachmentInspection>): AttachmentInspection => ({
  tokens: 1234,
  tokensSource: 'estimate',
  pageCount: 3,
  pageChars: [1600, 1600, 1600],
  textChars: null,
  pages: null,
  error: null,
  image: null,
  ...over,
});
const done = (over: Partial<AttachmentInspection>) => ({ status: 'done' as const, inspection: inspection(over) });

/** The text of the element with `id` in static markup, tags dropped. */
function textOf(html: string, id: string): string {
  const open = new RegExp(`<(\\w+)[^>]*\\sid="${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`).exec(html);
  if (!open) return `<missing ${id}>`;
  const tag = open[1] ?? '';
  const from = open.index + open[0].length;
  const tags = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'g');
  tags.lastIndex = from;
  let depth = 1;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return html.slice(from, m.index).replace(/<[^>]+>/g, '');
  }
  return `<unclosed ${id}>`;
}

/** What a screen reader says after the chip's name button: the text of what its aria-describedby names. */
function nameDescription(html: string): string {
  const button = /<button[^>]*data-testid="attachment-open"[^>]*>/.exec(html)?.[0] ?? '';
  const ids = /aria-describedby="([^"]*)"/.exec(button)?.[1] ?? '';
  return ids
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => textOf(html, id))
    .join(' ');
}

describe('an attachment’s preview shows what its chip said on hover', () => {
  it('says how a document’s token figure was come by: estimated, estimated and scaled, or counted by the server', () => {
    expect(previewFacts(pdf, done({}), 1)).toEqual({ line: '~1.2K tokens · 3 pages, estimated (about 4 characters per token).', advice: null });
    expect(previewFacts(pdf, done({ pages: { from: 2, to: 2 } }), 1)?.line).toBe('~1.2K tokens · page 2 of 3, estimated (about 4 characters per token).');
    expect(previewFacts(pdf, done({}), 2)?.line).toBe('~2.4K tokens · 3 pages, estimated (about 4 characters per token, scaled ×2.0 by the server’s counts).');
    expect(previewFacts(pdf, done({ tokensSource: 'exact' }), 2)?.line).toBe('1.2K tokens · 3 pages, counted by the server with the model’s tokenizer.');
  });

  it('says what to do about a text read as Latin-1, and nothing of an encoding its file named', () => {
    const latin1 = previewFacts(csv, done({ tokens: 19, pageCount: null, pageChars: null, textChars: 42, encoding: 'windows-1252' }), 1);
    expect(latin1).toEqual({
      line: '~19 tokens, estimated (about 4 characters per token).',
      advice: 'Not UTF-8: read as Latin-1 (Windows-1252), what older Windows programs save text as. If letters look wrong, save the file as UTF-8 and attach it again.',
    });
    expect(previewFacts(csv, done({ tokens: 19, pageCount: null, pageChars: null, encoding: 'utf-16le' }), 1)?.advice).toBeNull();
  });

  it('names the code page a Japanese, Chinese, Korean or Cyrillic text was read in, as a guess', () => {
    const facts = (encoding: 'shift_jis' | 'gb18030' | 'big5' | 'euc-kr' | 'windows-1251') =>
      previewFacts(csv, done({ tokens: 19, pageCount: null, pageChars: null, encoding }), 1)?.advice;
    expect(facts('shift_jis')).toBe('Not UTF-8: read as Japanese (Shift_JIS), what older Windows programs save text as. If letters look wrong, save the file as UTF-8 and attach it again.');
    expect(facts('gb18030')).toContain('read as Chinese (GBK),');
    expect(facts('big5')).toContain('read as Traditional Chinese (Big5),');
    expect(facts('euc-kr')).toContain('read as Korean (EUC-KR),');
    expect(facts('windows-1251')).toContain('read as Cyrillic (Windows-1251),');
    const chip = renderToStaticMarkup(<FileChipView block={csv} cost={done({ tokens: 19, pageCount: null, pageChars: null, encoding: 'shift_jis' })} />);
    expect(nameDescription(chip)).toBe('Shows the text the model reads. ~19 tokens, estimated.· read as Japanese (Shift_JIS)');
  });

  it('says the size a scaled image goes at, and nothing of one sent as it is', () => {
    expect(previewFacts(photo, done({ tokens: 768, pageCount: null, pageChars: null, image: { width: 1568, height: 1045, scaled: true } }), 1)).toEqual({
      line: 'Sent as 1568×1045 (the original stays stored).',
      advice: null,
    });
    expect(previewFacts(photo, done({ tokens: 768, pageCount: null, pageChars: null, image: { width: 800, height: 600, scaled: false } }), 1)).toBeNull();
  });

  it('says nothing while the file is read, or where it cannot be', () => {
    expect(previewFacts(pdf, undefined, 1)).toBeNull();
    expect(previewFacts(pdf, { status: 'reading' }, 1)).toBeNull();
    expect(previewFacts(pdf, { status: 'failed', message: 'Gone.' }, 1)).toBeNull();
    expect(previewFacts(pdf, done({ tokens: 0, error: '“report.pdf” is password-protected.' }), 1)).toBeNull();
  });
});

describe('a file chip’s name button', () => {
  it('is named by the file and described by what it opens and what the file costs, estimated or counted', () => {
    const estimated = renderToStaticMarkup(<FileChipView block={pdf} cost={done({})} />);
    // Named by its label (its text is in two parts, for a name cut in the middle: file-name-ends.ts), which is the name.
    const button = /<button[^>]*data-testid="attachment-open"[^>]*>(.*?)<\/button>/.exec(estimated);
    expect(/aria-label="([^"]*)"/.exec(button?.[0] ?? '')?.[1]).toBe('report.pdf');
    expect(button?.[1]?.replace(/<[^>]*>/g, '')).toBe('report.pdf');
    expect(nameDescription(estimated)).toBe('Shows the text the model reads. ~1.2K tokens · 3 pages, estimated.');
    const counted = renderToStaticMarkup(<FileChipView block={pdf} cost={done({ tokensSource: 'exact' })} />);
    expect(nameDescription(counted)).toBe('Shows the text the model reads. 1.2K tokens · 3 pages, counted by the server.');
    const latin1 = renderToStaticMarkup(<FileChipView block={csv} cost={done({ tokens: 19, pageCount: null, pageChars: null, encoding: 'windows-1252' })} />);
    expect(nameDescription(latin1)).toBe('Shows the text the model reads. ~19 tokens, estimated.· read as Latin-1 (Windows-1252)');
  });

  it('is described by why a file cannot be read, and does not say it shows a text it cannot', () => {
    const failed = renderToStaticMarkup(<FileChipView block={pdf} cost={done({ tokens: 0, error: '“report.pdf” is password-protected.' })} />);
    expect(nameDescription(failed)).toBe('“report.pdf” is password-protected.');
    expect(failed).not.toContain('Shows the text the model reads');
  });
});
