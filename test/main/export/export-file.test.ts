import { describe, expect, it } from 'vitest';
import { safeFileName } from '../../../src/main/export/export-file';

describe('export file names', () => {
  it.each([
    ['Tea temperatures', 'Tea temperatures'],
    ['../../etc/passwd', 'etc passwd'],
    ['a/b\\c:d*e?f"g<h>i|j', 'a b c d e f g h i j'],
    ['invoice\u202etxt.exe', 'invoice txt.exe'],
    ['line\nbreak\u0000', 'line break'],
    ['...', 'conversation'],
    ['x'.repeat(300), 'x'.repeat(80)],
  ])('turns %j into a safe name', (title, expected) => {
    expect(safeFileName(title)).toBe(expected);
  });

  // A long title is cut by whole characters, at a word's end, and leaves no bracket open (user-eyes pass): cut at 80
  // UTF-16 units, an emoji there was split in half (a broken character ended the name), and a word was cut inside
  // with its bracket left open ("… long enough (impor.md").
  const brokenCharacter = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  it('never ends a long name in half a character', () => {
    const name = safeFileName(`${'a'.repeat(79)}😀 and the rest of the title`);
    expect(name).not.toMatch(brokenCharacter);
    expect(name).toBe('a'.repeat(79));
    // A character of several code points (a family, a skin tone) is kept whole or left out whole.
    expect(safeFileName(`${'b'.repeat(76)}👨‍👩‍👧 family`)).toBe('b'.repeat(76));
    expect(safeFileName(`${'c'.repeat(77)}👍🏽 more`)).toBe('c'.repeat(77));
    expect(safeFileName(`${'d'.repeat(76)}👍🏽 more`)).toBe(`${'d'.repeat(76)}👍🏽`);
  });

  it('ends a long name at a word and closes no bracket it cannot show', () => {
    const title = 'Planning the garden for next spring, which vegetables grow well together, long enough (important)';
    const name = safeFileName(title);
    expect(name).toBe('Planning the garden for next spring, which vegetables grow well together, long');
    expect(name.length).toBeLessThanOrEqual(80);
    expect(safeFileName('Notes on the quarterly budget review with the finance team and (their draft numbers for the year)')).toBe('Notes on the quarterly budget review with the finance team and');
    expect(safeFileName('Reading list for the winter holidays, with a few short stories and « les Misérables »')).toBe('Reading list for the winter holidays, with a few short stories and');
    // One word longer than the limit is still cut, by whole characters.
    expect(safeFileName('x'.repeat(300))).toBe('x'.repeat(80));
    // A bracket closed within the name stays.
    expect(safeFileName(`${'word '.repeat(12)}(done) and then a great many more words to cut`)).toBe(`${'word '.repeat(12)}(done) and then a`);
  });
});
