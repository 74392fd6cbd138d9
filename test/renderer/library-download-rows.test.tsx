/**
 * Round 11: a download refused before its first byte (the chats' margin, a full disk) was listed twice in Models:
 * its row in the download box said why it stopped, and below, among the folder's files, "scripted-plain.gguf
 * 2.5 MiB" read as a model that was there. A download's entry is now only its download row; a part file whose
 * download record is gone is still listed, saying it is partly downloaded.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LibraryRows } from '../../src/renderer/components/library/LibrarySection';
import type { DownloadProgress, LibraryEntry } from '../../src/shared/library';

const base: Omit<LibraryEntry, 'file' | 'path' | 'sizeBytes' | 'state' | 'download'> = {
  reason: null, architecture: null, parameterCount: null, quantization: null, trainedContext: null, tools: false, thinking: false, vision: false, mmproj: null, sha256: null,
};
const model: LibraryEntry = { ...base, file: 'plain.gguf', path: '/m/plain.gguf', sizeBytes: 2_600_000, state: 'usable', architecture: 'llama', quantization: 'F32', download: null };
const refused: DownloadProgress = {
  downloadId: 'd1', file: 'big.gguf', source: 'http://127.0.0.1/big.gguf', state: 'error', bytes: 0, total: 2_621_440, bytesPerSecond: null, etaSeconds: null,
  error: 'Not enough free disk space for big.gguf: it needs 2.5 MiB more, plus 256 MiB kept free so your chats can still be saved, and 38.8 MiB is free in /m.',
};
const downloading = (download: DownloadProgress | null, sizeBytes: number): LibraryEntry => ({ ...base, file: 'big.gguf', path: '/m/big.gguf', sizeBytes, state: 'downloading', download });
const rowFiles = (html: string) => [...html.matchAll(/data-file="([^"]+)"/g)].map((m) => m[1]);

describe('Models → the folder’s files, beside a download', () => {
  it('lists a refused download only in the download box, not as a file of the size it would have had', () => {
    const html = renderToStaticMarkup(<LibraryRows entries={[model, downloading(refused, refused.total!)]} status={null} />);
    expect(rowFiles(html)).toEqual(['plain.gguf']);
  });

  it('lists a part file whose download record is gone, saying it is partly downloaded', () => {
    const html = renderToStaticMarkup(<LibraryRows entries={[model, downloading(null, 1_048_576)]} status={null} />);
    expect(rowFiles(html)).toEqual(['plain.gguf', 'big.gguf']);
    expect(html).toContain('Partly downloaded: download it again from its address to finish it.');
    expect(html).toContain('1.0 MiB');
  });
});
