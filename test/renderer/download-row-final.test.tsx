/**
 * A download refused for good (a 404, a web page) showed "stopped" with Resume, which would only get the same answer
 * (models audit #8). Its row now says it was not downloaded and offers to dismiss it; a download that stopped for a
 * reason that may pass (a dropped connection, a full disk) still offers Resume.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DownloadRow } from '../../src/renderer/components/library/DownloadBox';
import type { DownloadProgress } from '../../src/shared/library';

const stopped: DownloadProgress = {
  downloadId: 'd1', file: 'missing.gguf', source: 'http://127.0.0.1/a/missing.gguf', state: 'error', bytes: 0, total: null, bytesPerSecond: null, etaSeconds: null,
  error: 'There is no file at http://127.0.0.1/a/missing.gguf (HTTP 404). Check the address.',
};
const buttons = (html: string) => [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);

describe('a download row that stopped', () => {
  it('offers no Resume where the source refused the file for good', () => {
    const html = renderToStaticMarkup(<DownloadRow p={{ ...stopped, resumable: false }} />);
    expect(buttons(html)).toEqual(['Dismiss']);
    expect(html).toContain('not downloaded');
  });

  it('offers Resume where asking again may help', () => {
    const html = renderToStaticMarkup(<DownloadRow p={{ ...stopped, error: 'The download of missing.gguf stopped: the connection to 127.0.0.1 broke. Resume tries again.' }} />);
    expect(buttons(html)).toEqual(['Resume', 'Cancel']);
    expect(html).toContain('stopped');
  });
});
