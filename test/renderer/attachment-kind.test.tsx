/**
 * The kind a file's chip names (chat user's-eyes pass): "a.py" was labelled TXT, as was every source file without a
 * type of its own in the list; the chip names its extension, and TXT only a file without one.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AttachmentBlock } from '../../src/shared/turn';
import { FileChipView } from '../../src/renderer/components/turn/Attachments';

const file = (name: string, mime: string, kind: AttachmentBlock['kind'] = 'text'): AttachmentBlock => ({ type: 'attachment', id: 'a'.repeat(64), kind, name, mime, size: 9 });
const kindOn = (block: AttachmentBlock) => /<span class="chip-kind">([^<]*)<\/span>/.exec(renderToStaticMarkup(<FileChipView block={block} cost={undefined} />))?.[1];

describe('a file chip’s kind', () => {
  it('names a source file by its extension, not TXT', () => {
    expect(kindOn(file('a.py', 'text/x-python'))).toBe('PY');
    expect(kindOn(file('server.ts', 'text/plain'))).toBe('TS');
    expect(kindOn(file('lib.rs', 'text/x-rust'))).toBe('RS');
    expect(kindOn(file('notes.txt', 'text/plain'))).toBe('TXT');
  });

  it('keeps TXT for text without an extension, and the type’s name where it has one', () => {
    expect(kindOn(file('Makefile', 'text/plain'))).toBe('TXT');
    expect(kindOn(file('backup.snapshot', 'text/plain'))).toBe('TXT');
    expect(kindOn(file('Report.PDF', 'application/pdf', 'document'))).toBe('PDF');
    expect(kindOn(file('page.htm', 'text/html'))).toBe('HTML');
  });
});
