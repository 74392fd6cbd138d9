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
});
