/**
 * A library message with a whole path in it ("There is no file at /tmp/…/outside/missing.gguf.") wrapped mid-word at
 * 390 px or ran off the screen. A file is now said by its name, its whole path on hover; a folder stays whole, with
 * a break after each separator.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DownloadRow } from '../../src/renderer/components/library/DownloadBox';
import { PathWords, splitPaths } from '../../src/renderer/components/library/PathWords';
import type { DownloadProgress } from '../../src/shared/library';

/** What a user reads, without the markup. */
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"');

describe('paths in library messages', () => {
  it('says a file by its name, with its whole path on hover', () => {
    const html = renderToStaticMarkup(<PathWords text="There is no file at /tmp/firebrand-x/outside/missing.gguf." />);
    expect(text(html)).toBe('There is no file at missing.gguf.');
    expect(html).toContain('title="/tmp/firebrand-x/outside/missing.gguf"');
  });

  it('keeps a folder whole, breaking after its separators', () => {
    const html = renderToStaticMarkup(<PathWords text="and 102.4 MiB is free in /home/ann/.local/share/firebrand/models." />);
    expect(text(html)).toBe('and 102.4 MiB is free in /home/ann/.local/share/firebrand/models.');
    expect(html).toContain('/<wbr/>home/<wbr/>ann/<wbr/>');
  });

  it('leaves web addresses, hf: names and fractions as they are', () => {
    for (const s of ['There is no file at https://example.com/a/missing.gguf (HTTP 404).', 'Write hf:owner/repo/file.gguf.', '1.0 MiB / 4.0 MiB']) expect(splitPaths(s)).toEqual([s]);
    expect(splitPaths('C:\\Users\\ann\\m.gguf, then')).toEqual([{ path: 'C:\\Users\\ann\\m.gguf', name: 'm.gguf' }, ', then']);
  });

  it('says a download that stopped on a full disk with the folder that breaks cleanly', () => {
    const p: DownloadProgress = {
      downloadId: 'd1', file: 'm.gguf', source: 'hf:o/r/m.gguf', state: 'error', bytes: 10, total: 20, bytesPerSecond: null, etaSeconds: null,
      error: 'The disk that holds the models folder /very/long/folder/name/models is full, so the download of m.gguf stopped.',
    };
    const html = renderToStaticMarkup(<DownloadRow p={p} />);
    expect(html).toMatch(/data-path="\/very\/long\/folder\/name\/models"/);
  });
});
