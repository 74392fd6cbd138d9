import { describe, expect, it } from 'vitest';
import { fileNameEnds } from '../../src/renderer/components/turn/file-name-ends';

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
