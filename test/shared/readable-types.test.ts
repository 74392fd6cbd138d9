/**
 * The page refuses a file of a type Firebrand cannot read before uploading it (shared/readable-types.ts); main still
 * checks the bytes. The page's guess must be main's answer: never refuse a file main would take, and refuse, by type
 * or by its first bytes, each one main refuses for its type.
 */
import { describe, expect, it } from 'vitest';
import { checkAttachment } from '../../src/main/blobs/attachment-checks';
import { DOCX_MIME, extractorFor, unreadableBinary, unreadableByType, unreadableTypeMessage } from '../../src/shared/readable-types';

const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p)] : p)));
const ZIP = [0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d];
const BODIES: Record<string, Uint8Array> = {
  zip: bytes(ZIP, 'rest'),
  exe: bytes([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]),
  // A program's first bytes, no NUL among them yet: its magic number says binary, for the page as for main.
  mzOnly: bytes('MZ'),
  elfHead: bytes([0x7f, 0x45, 0x4c, 0x46]),
  shortText: bytes('ok'),
  png: bytes(PNG),
  pdf: bytes('%PDF-1.7\n', [0, 1, 2]),
  text: bytes('a Makefile\nall:\n\tcc x.c\n'),
  utf16: bytes([0xff, 0xfe, 0x41, 0, 0x42, 0]),
  nulLate: bytes('x'.repeat(5000), [0]),
};
const CLAIMS = ['application/zip', 'application/msword', 'application/vnd.ms-excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/x-msdownload', 'audio/mpeg', 'application/octet-stream', 'application/pdf', DOCX_MIME, 'text/plain', 'text/html', 'application/json', 'image/png', 'image/jpeg'];

/** Whether main refuses these bytes under this claim for their type (other refusals: undefined). */
function mainRefusesForType(body: Uint8Array, mime: string): boolean | undefined {
  try {
    const checked = checkAttachment(body, { name: 'f', mime });
    return checked.kind === 'document' && !extractorFor(checked.mime);
  } catch {
    return undefined;
  }
}

describe('the page’s refusal of a type Firebrand cannot read', () => {
  it('refuses exactly the files main refuses for their type', () => {
    const wrong: string[] = [];
    for (const mime of CLAIMS) {
      for (const [kind, body] of Object.entries(BODIES)) {
        const page = unreadableByType(mime) || (mime === 'application/octet-stream' && unreadableBinary(body.subarray(0, 4096)));
        const main = mainRefusesForType(body, mime);
        if (page && main !== true) wrong.push(`${kind} as ${mime}: the page refuses what main takes`);
        // A NUL past the first bytes is main's to find; every other refusal the page makes first.
        if (!page && main === true && kind !== 'nulLate') wrong.push(`${kind} as ${mime}: refused by main only`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('says it in main’s words, naming the file and what can be attached', () => {
    expect(unreadableTypeMessage('photos.zip')).toBe(
      '“photos.zip” cannot be attached: Firebrand cannot read .zip files. It reads PDF, Word (.docx), HTML and text files, and PNG, JPEG, GIF and WebP images.',
    );
  });

  // Documents pass: the type was named by its media type, jargon for a .pptx
  // ("application/vnd.openxmlformats-officedocument.presentationml.presentation") and nothing at all for a program
  // ("application/octet-stream"). It is named by the file's extension, as the user knows it.
  it('names the type by the file’s extension, never by its media type', () => {
    expect(unreadableTypeMessage('Q3 deck.PPTX')).toMatch(/^“Q3 deck\.PPTX” cannot be attached: Firebrand cannot read \.pptx files\. It reads PDF, Word \(\.docx\)/);
    expect(unreadableTypeMessage('lettre.doc')).toContain('Firebrand cannot read .doc files. It reads PDF, Word (.docx),');
    // No extension, or none that names a type: no type to name.
    expect(unreadableTypeMessage('tool')).toContain('“tool” cannot be attached: Firebrand cannot read this type of file. It reads');
    expect(unreadableTypeMessage('minutes.2024')).toContain('Firebrand cannot read this type of file.');
    expect(unreadableTypeMessage('setup.exe')).not.toMatch(/application\//);
  });
});
