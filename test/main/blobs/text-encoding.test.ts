/**
 * How a text attachment's bytes are read (src/main/blobs/text-encoding.ts): UTF-8, UTF-16 behind its mark, else
 * Windows-1252 where nothing says the bytes are binary (documents audit: all but UTF-8 were refused).
 */
import { describe, expect, it } from 'vitest';
import { decodeText, textEncodingOf } from '../../../src/main/blobs/text-encoding';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('text encodings', () => {
  it('reads UTF-8 as UTF-8 and drops its byte-order mark', () => {
    expect(decodeText(Buffer.from('\ufeffCafé', 'utf8'))).toEqual({ text: 'Café', encoding: 'utf-8' });
    expect(decodeText(Buffer.from('Café', 'utf8'))).toEqual({ text: 'Café', encoding: 'utf-8' });
  });

  it('reads UTF-16 behind its byte-order mark, either byte order, without the mark', () => {
    const le = Buffer.from('\ufeffNaïve — 日本', 'utf16le');
    expect(decodeText(le)).toEqual({ text: 'Naïve — 日本', encoding: 'utf-16le' });
    expect(decodeText(Buffer.from(le).swap16())).toEqual({ text: 'Naïve — 日本', encoding: 'utf-16be' });
  });

  it('reads bytes that are not UTF-8 as Windows-1252, its 0x80-0x9F included (not as invisible C1 controls)', () => {
    // "Œuvre “12 €” – Ÿ" as Windows-1252: 0x8C Œ, 0x93/0x94 quotes, 0x80 €, 0x96 en dash, 0x9F Ÿ.
    const cp1252 = bytes(0x8c, 0x75, 0x76, 0x72, 0x65, 0x20, 0x93, 0x31, 0x32, 0x20, 0x80, 0x94, 0x20, 0x96, 0x20, 0x9f, 0x20, 0xe9, 0xe0);
    expect(decodeText(cp1252)).toEqual({ text: 'Œuvre “12 €” – Ÿ éà', encoding: 'windows-1252' });
  });

  it('takes no encoding for binary data: NULs, many control characters, or UTF-16 that does not decode', () => {
    expect(textEncodingOf(bytes(0xc3, 0x28, 0x00, 0x41))).toBeUndefined();
    // Not UTF-8, no NUL, but one control character in ten: no text file looks like that.
    expect(textEncodingOf(bytes(0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0xe9, 0x41, 0x42, 0x43))).toBeUndefined();
    // One in a hundred and fifty (a stray bell in a long line) is still text.
    expect(textEncodingOf(Buffer.concat([Buffer.from('A'.repeat(150), 'latin1'), bytes(0x07, 0xe9)]))).toBe('windows-1252');
    // A UTF-16 mark followed by an odd byte count or a lone surrogate is not UTF-16 text.
    expect(textEncodingOf(bytes(0xff, 0xfe, 0x41, 0x00, 0x42))).toBeUndefined();
    expect(textEncodingOf(bytes(0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00))).toBeUndefined();
    // A tab, line ends and an escape (a coloured log) are text.
    expect(textEncodingOf(Buffer.from('a\tb\r\n\u001b[31mred\u001b[0m é', 'latin1'))).toBe('windows-1252');
  });
});
