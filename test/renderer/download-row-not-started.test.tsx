/**
 * A download that stopped before its first byte (its source unreachable, no room on the disk) read "stopped · 0 B /
 * ?": a size of nothing out of an unknown one. Its row now says it did not start and that nothing arrived; one that
 * stopped midway still says how much of how much is on disk.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DownloadRow } from '../../src/renderer/components/library/DownloadBox';
import type { DownloadProgress } from '../../src/shared/library';

const unreachable: DownloadProgress = {
  downloadId: 'd1', file: 'away.gguf', source: 'http://127.0.0.1:9/m/away.gguf', state: 'error', bytes: 0, total: null, bytesPerSecond: null, etaSeconds: null,
  error: 'The download of away.gguf stopped: 127.0.0.1:9 refused the connection: nothing is listening at that address. Resume tries again.',
};
/** What a user reads on the row, without the markup. */
const text = (p: DownloadProgress) => renderToStaticMarkup(<DownloadRow p={p} />).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('a download row that never got a byte', () => {
  it('says it did not start and that nothing arrived, not "stopped · 0 B / ?"', () => {
    const said = text(unreachable);
    expect(said).toContain('away.gguf not started');
    expect(said).toContain('nothing arrived');
    expect(said).not.toContain('0 B');
    expect(said).not.toContain('?');
    // Resume asks again: it is still offered.
    expect(said).toContain('Resume');
  });

  it('names the size to come where the source gave one, with no empty bar', () => {
    const html = renderToStaticMarkup(<DownloadRow p={{ ...unreachable, total: 2.5 * 1024 ** 2, error: 'Not enough free disk space for away.gguf: …' }} />);
    expect(html).toContain('nothing arrived of 2.5 MiB');
    expect(html).not.toContain('<progress');
  });

  it('says a download paused before its first byte as such', () => {
    expect(text({ ...unreachable, state: 'paused', error: undefined })).toContain('paused before it started');
  });

  it('still says how much arrived where it stopped midway', () => {
    const said = text({ ...unreachable, bytes: 1024 ** 2, total: 4 * 1024 ** 2 });
    expect(said).toContain('away.gguf stopped');
    expect(said).toContain('1.0 MiB / 4.0 MiB');
  });
});
