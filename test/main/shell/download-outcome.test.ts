/**
 * The desktop app said "Exported" as its save dialog opened: a cancelled dialog still read "Exported", and a write
 * that failed said nothing. The shell now reports how each of the window's downloads ended
 * (`conversations:export-done`), and the page speaks from that. Here with a fake `DownloadItem` under Node; the
 * shell's wiring (the session's `will-download`) is one line in src/main/shell/index.ts.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportDone } from '../../../src/shared/export-ipc';
import { reportDownloadOutcome } from '../../../src/main/shell/download-outcome';

/** An Electron `DownloadItem` as far as the report reads it: its URL, offered name, the path the dialog chose. */
class FakeDownloadItem extends EventEmitter {
  savePath = '';
  constructor(
    private readonly url: string,
    private readonly filename: string,
  ) {
    super();
  }
  getURL(): string {
    return this.url;
  }
  getFilename(): string {
    return this.filename;
  }
  getSavePath(): string {
    return this.savePath;
  }
  /** Ends the download as Electron does: a `done` event with its state. */
  end(state: ExportDone['state']): void {
    this.emit('done', { preventDefault: () => {} }, state);
  }
}

function watch(item: FakeDownloadItem): { channel: string; payload: ExportDone }[] {
  const sent: { channel: string; payload: ExportDone }[] = [];
  reportDownloadOutcome(item, (channel, payload) => sent.push({ channel, payload }));
  return sent;
}

const URL_ = 'blob:app://firebrand/4b1c0f3e-2a55-4c43-9a4e-6a7d8e9f0a1b';

describe('the shell reports how an export’s download ended', () => {
  it('says nothing while the save dialog is open', () => {
    const sent = watch(new FakeDownloadItem(URL_, 'Tea.firebrand.json'));
    expect(sent).toEqual([]);
  });

  it('completed: names the file as saved, which the user may have renamed in the dialog', () => {
    const item = new FakeDownloadItem(URL_, 'Tea.firebrand.json');
    const sent = watch(item);
    item.savePath = join('/home/ada/Documents', 'tea backup.firebrand.json');
    item.end('completed');
    expect(sent).toEqual([{ channel: 'conversations:export-done', payload: { url: URL_, state: 'completed', fileName: 'tea backup.firebrand.json' } }]);
  });

  it('cancelled: the dialog closed with no file chosen, so the name offered is given', () => {
    const item = new FakeDownloadItem(URL_, 'Tea.md');
    const sent = watch(item);
    item.end('cancelled');
    expect(sent).toEqual([{ channel: 'conversations:export-done', payload: { url: URL_, state: 'cancelled', fileName: 'Tea.md' } }]);
  });

  it('interrupted: the write failed, and the file it was going to is named', () => {
    const item = new FakeDownloadItem(URL_, 'Tea.firebrand.json');
    const sent = watch(item);
    item.savePath = join('/media/full-disk', 'Tea.firebrand.json');
    item.end('interrupted');
    expect(sent).toEqual([{ channel: 'conversations:export-done', payload: { url: URL_, state: 'interrupted', fileName: 'Tea.firebrand.json' } }]);
  });

  it('reports each download once, and each under its own URL', () => {
    const first = new FakeDownloadItem(URL_, 'Tea.firebrand.json');
    const second = new FakeDownloadItem('blob:app://firebrand/other', 'Coffee.md');
    const sent: ExportDone[] = [];
    for (const item of [first, second]) reportDownloadOutcome(item, (_channel, payload) => sent.push(payload));
    second.end('cancelled');
    first.savePath = '/tmp/Tea.firebrand.json';
    first.end('completed');
    first.end('completed');
    expect(sent).toEqual([
      { url: 'blob:app://firebrand/other', state: 'cancelled', fileName: 'Coffee.md' },
      { url: URL_, state: 'completed', fileName: 'Tea.firebrand.json' },
    ]);
  });
});
