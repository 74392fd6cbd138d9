/**
 * The desktop app's export said "Exported …" as its save dialog opened: a cancelled dialog still read "Exported",
 * and a write that failed said nothing. There the page now waits for the shell's word on the download
 * (`conversations:export-done`); in a browser (serve mode) the download is the save, and the notice comes at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportDone } from '../../src/shared/export-ipc';

const store = vi.hoisted(() => ({ fail: vi.fn(), openConversation: vi.fn(), showNotice: vi.fn(), INFO: { kind: 'info' }, useStore: { getState: () => ({ importing: null }), setState: () => {} } }));
const carrier = vi.hoisted(() => ({ desktop: true }));
const shell = vi.hoisted(() => {
  const listeners = new Set<(done: ExportDone) => void>();
  return {
    listeners,
    /** The shell's report of how a download ended. */
    done: (done: ExportDone) => {
      for (const l of [...listeners]) l(done);
    },
  };
});
const api = vi.hoisted(() => ({
  conversations: {
    export: vi.fn(async ({ format }: { format: 'json' | 'markdown' }) => ({
      fileName: format === 'json' ? 'Tea.firebrand.json' : 'Tea.md',
      mime: 'application/json',
      text: '{}',
      title: 'Tea',
    })),
    exportAll: vi.fn(async () => ({ fileName: 'Firebrand conversations.firebrand.json', mime: 'application/json', text: '{}' })),
    onExportDone: (listener: (done: ExportDone) => void) => {
      shell.listeners.add(listener);
      return () => void shell.listeners.delete(listener);
    },
  },
}));
vi.mock('../../src/renderer/store', () => store);
vi.mock('../../src/renderer/firebrand', () => ({ firebrand: () => api, inDesktopApp: () => carrier.desktop }));

const { exportAllConversations, exportConversationFile, savingFailedMessage } = await import('../../src/renderer/store/export-import');

/** The page's downloads: each link clicked, as the browser (or Electron) would start it. */
const clicks: { href: string; download: string }[] = [];

beforeEach(() => {
  clicks.length = 0;
  shell.listeners.clear();
  store.fail.mockClear();
  store.showNotice.mockClear();
  api.conversations.export.mockClear();
  vi.stubGlobal('document', {
    body: { append: () => {} },
    createElement: () => {
      const a = { href: '', download: '', rel: '', click: () => void clicks.push({ href: a.href, download: a.download }), remove: () => {} };
      return a;
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Waits until the page has started its download (the desktop app's save dialog is open), and returns it. */
async function dialogOpen(n = 1): Promise<{ href: string; download: string }> {
  await vi.waitFor(() => expect(clicks).toHaveLength(n));
  return clicks[n - 1]!;
}

describe('an export in the desktop app says how its save dialog ended', () => {
  beforeEach(() => {
    carrier.desktop = true;
  });

  it('says nothing while the dialog is open, then “Exported … to” the file the user chose', async () => {
    const exporting = exportConversationFile('c1', 'json');
    const download = await dialogOpen();
    expect(download.download).toBe('Tea.firebrand.json');
    expect(store.showNotice).not.toHaveBeenCalled();
    // Another download's end (a second export) is not this one's.
    shell.done({ url: 'blob:app://firebrand/another', state: 'completed', fileName: 'Other.firebrand.json' });
    expect(store.showNotice).not.toHaveBeenCalled();
    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    shell.done({ url: download.href, state: 'completed', fileName: 'tea backup.firebrand.json' });
    await exporting;
    expect(store.showNotice).toHaveBeenCalledExactlyOnceWith('Exported “Tea” to “tea backup.firebrand.json”.', store.INFO);
    expect(store.fail).not.toHaveBeenCalled();
    // The file stayed readable while the dialog was open, and is let go once it closed.
    expect(revoke).toHaveBeenCalledWith(download.href);
    expect(shell.listeners.size).toBe(0);
    revoke.mockRestore();
  });

  it('says nothing when the user cancels the dialog: no “Exported”, no error', async () => {
    const exporting = exportConversationFile('c1', 'markdown');
    const download = await dialogOpen();
    shell.done({ url: download.href, state: 'cancelled', fileName: 'Tea.md' });
    await exporting;
    expect(store.showNotice).not.toHaveBeenCalled();
    expect(store.fail).not.toHaveBeenCalled();
    expect(shell.listeners.size).toBe(0);
  });

  it('says a failed write clearly, naming the file, and its Retry exports again', async () => {
    const exporting = exportConversationFile('c1', 'json');
    const download = await dialogOpen();
    shell.done({ url: download.href, state: 'interrupted', fileName: 'Tea.firebrand.json' });
    await exporting;
    expect(store.showNotice).not.toHaveBeenCalled();
    expect(store.fail).toHaveBeenCalledOnce();
    const [err, retry] = store.fail.mock.calls[0] as [Error, () => void];
    expect(err.message).toBe(savingFailedMessage('Tea.firebrand.json'));
    expect(err.message).toBe('The export could not be saved to “Tea.firebrand.json”: writing the file failed (is the disk full, or the folder read-only?). Retry to choose a place again.');
    // Retry asks main for the file again and opens the dialog again: the chat itself was never touched.
    retry();
    const again = await dialogOpen(2);
    expect(api.conversations.export).toHaveBeenCalledTimes(2);
    shell.done({ url: again.href, state: 'completed', fileName: 'Tea.firebrand.json' });
    await vi.waitFor(() => expect(store.showNotice).toHaveBeenCalledWith('Exported “Tea” to “Tea.firebrand.json”.', store.INFO));
  });

  it('Export all waits for the dialog too', async () => {
    const exporting = exportAllConversations();
    const download = await dialogOpen();
    expect(store.showNotice).not.toHaveBeenCalled();
    shell.done({ url: download.href, state: 'completed', fileName: 'backup.firebrand.json' });
    await exporting;
    expect(store.showNotice).toHaveBeenCalledExactlyOnceWith('Exported every conversation to “backup.firebrand.json”.', store.INFO);
  });
});

describe('an export in a browser (serve mode)', () => {
  beforeEach(() => {
    carrier.desktop = false;
  });

  it('is saved by the download itself, and says so at once, as before', async () => {
    await exportConversationFile('c1', 'markdown');
    expect(clicks).toHaveLength(1);
    expect(store.showNotice).toHaveBeenCalledExactlyOnceWith('Exported “Tea” (current branch, as Markdown) as “Tea.md”.', store.INFO);
    expect(shell.listeners.size).toBe(0);
    await exportAllConversations();
    expect(store.showNotice).toHaveBeenLastCalledWith('Exported every conversation as “Firebrand conversations.firebrand.json”.', store.INFO);
  });
});
