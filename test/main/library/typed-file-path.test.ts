import { describe, expect, it } from 'vitest';
import { typedFilePathCandidates } from '../../../src/main/library/typed-file-path';

describe('a path typed or pasted into Models → Add', () => {
  it('is tried as typed first, then as the file it names once the quotes, escapes, file:// or ~ are taken off', () => {
    const posix = (typed: string) => typedFilePathCandidates(typed, '/home/ana', 'linux');
    expect(posix('/m/x.gguf')).toEqual(['/m/x.gguf']);
    expect(posix('  /m/x.gguf \n')).toEqual(['/m/x.gguf']);
    // A file dragged onto a Linux terminal, then copied (single quotes and a trailing space).
    expect(posix("'/home/ana/My Models/x.gguf' ")).toEqual(["'/home/ana/My Models/x.gguf'", '/home/ana/My Models/x.gguf']);
    // Windows' "Copy as path", here for a POSIX path.
    expect(posix('"/m/x.gguf"')).toEqual(['"/m/x.gguf"', '/m/x.gguf']);
    // Dragged onto a macOS terminal: spaces escaped.
    expect(posix('/Users/ana/My\\ Models/x\\(1\\).gguf')).toEqual(['/Users/ana/My\\ Models/x\\(1\\).gguf', '/Users/ana/My Models/x(1).gguf']);
    expect(posix('file:///home/ana/My%20Models/x.gguf')).toEqual(['file:///home/ana/My%20Models/x.gguf', '/home/ana/My Models/x.gguf']);
    expect(posix('~/Downloads/x.gguf')).toEqual(['~/Downloads/x.gguf', '/home/ana/Downloads/x.gguf']);
    // Not a local file's URL: nothing else to try.
    expect(posix('file://server/share/x.gguf')).toEqual(['file://server/share/x.gguf']);
    expect(posix('""')).toEqual(['""']);
  });

  it('keeps a Windows path’s backslashes: there they separate folders', () => {
    expect(typedFilePathCandidates('"C:\\Users\\ana\\My Models\\x.gguf"', 'C:\\Users\\ana', 'win32')).toEqual(['"C:\\Users\\ana\\My Models\\x.gguf"', 'C:\\Users\\ana\\My Models\\x.gguf']);
    expect(typedFilePathCandidates('C:\\m\\x.gguf', 'C:\\Users\\ana', 'win32')).toEqual(['C:\\m\\x.gguf']);
  });
});
