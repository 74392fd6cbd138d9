import { describe, expect, it } from 'vitest';
import { captionLines, fileNameEnds } from '../../src/renderer/components/turn/file-name-ends';

describe("a file name's two ends, for a chip cut in the middle", () => {
  it('keeps the extension and the letters before it in the tail, and joined they are the name', () => {
    expect(fileNameEnds('quarterly-report-final-v3.pdf')).toEqual(['quarterly-report-', 'final-v3.pdf']);
    expect(fileNameEnds('notes from the meeting.txt').join('')).toBe('notes from the meeting.txt');
  });

  it('cuts nothing in a short name, and keeps the last letters of one with no extension', () => {
    expect(fileNameEnds('notes.md')).toEqual(['notes.md', '']);
    expect(fileNameEnds('README-for-the-whole-project')).toEqual(['README-for-the-whole', '-project']);
    // Past the last dot is a sentence, not an extension.
    expect(fileNameEnds('v1.2 notes about what changed in it')[1]).toBe('ed in it');
  });

  it('does not cut a letter outside the BMP in two', () => {
    const [head, tail] = fileNameEnds('holiday-photos-from-the-beach-😀😀😀.txt');
    expect(tail).toBe('each-😀😀😀.txt');
    expect(head + tail).toBe('holiday-photos-from-the-beach-😀😀😀.txt');
  });
});

describe('a file name on two lines under a sent picture', () => {
  it('puts the end, the words before the extension, on a line of its own', () => {
    expect(captionLines('Screenshot 2026-12-07 at 10.31.02 - settings page after the update.png', 14)).toEqual(['Screenshot 2026-12-07 at 10.31.02 - settings page after', 'the update.png']);
    expect(captionLines('Screenshot 2026-12-07.png', 14)).toEqual(['Screenshot', '2026-12-07.png']);
    expect(captionLines('login.png', 14)).toEqual(['login.png', '']);
  });

  it('keeps a line’s last letters where no word starts near the end, and never cuts a letter outside the BMP', () => {
    expect(captionLines('IMG_20261207_103102123456.jpg', 14)).toEqual(['IMG_20261207_10', '3102123456.jpg']);
    expect(captionLines('averyveryverylongnamewithoutanyspacesatall.png', 14)[1]).toBe('pacesatall.png');
    expect(captionLines('holiday-photos-from-the-beach-😀😀😀.png', 14)).toEqual(['holiday-photos-from-the-', 'beach-😀😀😀.png']);
  });
});
