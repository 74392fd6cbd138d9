/**
 * A download refused for good (a 404, a web page) keeps its row, with its reason and Dismiss, until the user dismisses
 * it. Its row went away without a click after the page's link to serve mode came back where this page had it from
 * main's listing (the page was opened or reloaded after the refusal) and main no longer listed it: serve mode
 * restarted on the same address (main keeps no refused download across a restart), or a download of the same file
 * from another address (which a refusal allows) took the file's one place in the listing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cancelDownload, connectLibraryStore, downloadRows, loadLibrary, useLibraryStore } from '../../src/renderer/store/library-slice';
import { resyncAfterReconnect } from '../../src/renderer/store/resync';
import { useStore } from '../../src/renderer/store/index';
import type { DownloadProgress, LibraryEntry } from '../../src/shared/library';
import { fakeApi } from './helpers/fake-api';

const REASON = 'The download of model.gguf was refused: HTTP 404, there is no such file at that address. Check the address.';
const refused: DownloadProgress = { downloadId: 'a', file: 'model.gguf', source: 'https://a.example/model.gguf', state: 'error', bytes: 0, total: null, bytesPerSecond: null, etaSeconds: null, error: REASON, resumable: false };
const second: DownloadProgress = { downloadId: 'b', file: 'model.gguf', source: 'https://b.example/model.gguf', state: 'running', bytes: 10, total: 100, bytesPerSecond: 5, etaSeconds: 18 };
/** model.gguf's entry in main's listing, with the one download the listing gives it. */
const listed = (download: DownloadProgress): LibraryEntry => ({ file: 'model.gguf', path: '/m/model.gguf', sizeBytes: download.total ?? download.bytes, state: 'downloading', download }) as LibraryEntry;

let library: LibraryEntry[];
const cancelled: string[] = [];
/** The rows the download box shows. */
const rows = () => downloadRows(useLibraryStore.getState().entries, useLibraryStore.getState().downloads).map((p) => `${p.downloadId} ${p.state}`);

beforeEach(async () => {
  library = [listed(refused)];
  cancelled.length = 0;
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      builtin: { status: () => Promise.resolve({ backend: null, running: true, loaded: [], loading: [], waiting: [], modelsDir: '/m', unavailable: null }) },
      library: {
        list: () => Promise.resolve(library),
        // Main answers false for a download it does not know (one it forgot in a restart).
        cancelDownload: ({ downloadId }: { downloadId: string }) => (cancelled.push(downloadId), Promise.resolve({ cancelled: false })),
      },
    }),
  };
  useStore.setState({ activeId: null });
  useLibraryStore.setState({ entries: [], downloads: {} });
  // The Models screen opened after the refusal: the row comes from main's listing, not from a live event.
  connectLibraryStore();
  await loadLibrary();
  expect(rows()).toEqual(['a error']);
});

describe('a refused download row, after the link to serve mode came back', () => {
  it('stays, with its reason, where serve mode restarted and main lists it no more', async () => {
    library = [];
    await resyncAfterReconnect();
    await expect.poll(() => useLibraryStore.getState().entries).toEqual([]);
    expect(rows()).toEqual(['a error']);
    expect(downloadRows([], useLibraryStore.getState().downloads)[0]).toMatchObject({ error: REASON, resumable: false });
  });

  it('stays beside a download of the same file from another address, which took its place in the listing', async () => {
    library = [listed(second)];
    await resyncAfterReconnect();
    await expect.poll(() => useLibraryStore.getState().entries.map((e) => e.download?.downloadId)).toEqual(['b']);
    expect(rows().sort()).toEqual(['a error', 'b running']);
  });

  it('goes once dismissed, main knowing it or not', async () => {
    library = [];
    await resyncAfterReconnect();
    await expect.poll(() => useLibraryStore.getState().entries).toEqual([]);
    await cancelDownload('a');
    expect(cancelled).toEqual(['a']);
    expect(rows()).toEqual([]);
    // A listing read before the Dismiss reached main (it still names the download) does not bring it back.
    library = [listed(refused)];
    await loadLibrary();
    expect(useLibraryStore.getState().downloads).toEqual({});
  });
});
