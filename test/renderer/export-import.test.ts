/** The renderer's side of files in and out: a large import goes in chunks, and sizes are checked before reading. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ImportUploads } from '../../src/main/export/import-uploads';
import { ATTACHMENT_MAX_BYTES, CONVERSATION_FILE_MAX_BYTES, IMPORT_CHUNK_BYTES, base64Length } from '../../src/shared/file-limits';
import type { AttachmentBlock } from '../../src/shared/turn';
import { FirebrandError, type IpcErrorCode } from '../../src/shared/ipc';

const store = vi.hoisted(() => {
  // The slice of the store an import uses: whether one is on its way in, and the conversations listed.
  let state: { importing: string | null; conversations: unknown[] } = { importing: null, conversations: [] };
  const useStore = { getState: () => state, setState: (next: Partial<typeof state>) => void (state = { ...state, ...next }) };
  return { fail: vi.fn(), openConversation: vi.fn(async () => {}), showNotice: vi.fn(), INFO: { kind: 'info' }, REFUSED: { kind: 'refused' }, useStore };
});
const api = vi.hoisted(() => ({ conversations: {} as Record<string, unknown>, attachments: {} as Record<string, unknown> }));
vi.mock('../../src/renderer/store', () => store);
vi.mock('../../src/renderer/firebrand', () => ({ firebrand: () => api }));

const { importConversationFile } = await import('../../src/renderer/store/export-import');
const { addAttachment } = await import('../../src/renderer/store/attachments');
const { pendingWith, sameAttachment } = await import('../../src/renderer/components/composer/use-attachments');

/** What a call rejects with in the page when main throws: the error's code and message (as IPC carries them). */
function toFirebrandError<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    const { code, message } = err as { code: IpcErrorCode; message: string };
    throw new FirebrandError({ code, message });
  }
}

/** main's side of the upload, with what each call carried. */
function fakeMain(result: { imported: number; all: boolean; copies?: number; title?: string; listedAbove?: number } = { imported: 1, all: false }) {
  const uploads = new ImportUploads({ newId: () => 'up-1' });
  const calls: string[] = [];
  const chunkChars: number[] = [];
  let imported = '';
  api.conversations = {
    importBegin: vi.fn(async ({ size, name }: { size: number; name?: string }) => (calls.push('begin'), uploads.begin(size, name))),
    importChunk: vi.fn(async ({ uploadId, offset, dataBase64 }: { uploadId: string; offset: number; dataBase64: string }) => {
      calls.push('chunk');
      chunkChars.push(dataBase64.length);
      return uploads.append(uploadId, offset, Buffer.from(dataBase64, 'base64'));
    }),
    importFinish: vi.fn(async ({ uploadId }: { uploadId: string }) => {
      calls.push('finish');
      imported = uploads.take(uploadId).text;
      return { conversationId: 'c-imported', title: result.title ?? 'Tea', imported: result.imported, all: result.all, copies: result.copies ?? 0, listedAbove: result.listedAbove ?? 0 };
    }),
    list: vi.fn(async () => []),
    importCancel: vi.fn(async ({ uploadId }: { uploadId: string }) => (calls.push('cancel'), { cancelled: uploads.cancel(uploadId) })),
    import: vi.fn(),
  };
  return { uploads, calls, chunkChars, imported: () => imported };
}

beforeEach(() => {
  store.fail.mockClear();
  store.openConversation.mockClear();
  store.showNotice.mockClear();
});

describe('importing a conversation file', () => {
  it('sends a file larger than one payload in chunks under the frame limit, and main gets every byte back', async () => {
    const main = fakeMain();
    // 9 MB with multi-byte characters cut across chunk edges.
    const text = `{"title":"${'Привет 東京 '.repeat(Math.ceil((9 * 1024 * 1024) / 20))}"}`;
    await importConversationFile(new File([text], 'big.firebrand.json', { type: 'application/json' }));
    expect(store.fail).not.toHaveBeenCalled();
    expect(main.imported()).toBe(text);
    expect(main.calls).toEqual(['begin', 'chunk', 'chunk', 'chunk', 'finish']);
    expect(Math.max(...main.chunkChars)).toBeLessThanOrEqual(base64Length(IMPORT_CHUNK_BYTES));
    expect(api.conversations['import']).not.toHaveBeenCalled();
    expect(store.openConversation).toHaveBeenCalledWith('c-imported');
  });

  it('opens the first conversation of an Export all and says how many came in', async () => {
    fakeMain({ imported: 12, all: true });
    await importConversationFile(new File(['{"format":"firebrand.conversations"}'], 'all.firebrand.json'));
    expect(store.fail).not.toHaveBeenCalled();
    expect(store.openConversation).toHaveBeenCalledWith('c-imported');
    expect(store.showNotice).toHaveBeenCalledWith('Imported 12 conversations.', store.INFO);
    expect(store.useStore.getState().importing).toBeNull();
    // One conversation's file opens with nothing more to say.
    store.showNotice.mockClear();
    fakeMain();
    await importConversationFile(new File(['{}'], 'one.firebrand.json'));
    expect(store.showNotice).not.toHaveBeenCalled();
  });

  // An imported chat is listed by its own last message: an old one past the list's first page (50) opened, and the
  // list neither showed nor marked it (export audit #1). The list is read as far as it.
  it('reads the list as far as the imported chat, wherever its date lists it', async () => {
    fakeMain({ imported: 1, all: false, listedAbove: 70 });
    await importConversationFile(new File(['{}'], 'old.firebrand.json'));
    expect(store.fail).not.toHaveBeenCalled();
    expect(store.openConversation).toHaveBeenCalledWith('c-imported');
    expect(api.conversations['list']).toHaveBeenCalledWith({ limit: 71 });
  });

  // The same export imported again came in as an unmarked second chat, with nothing said.
  it('says a conversation that was already here came in as a marked copy, one or an Export all', async () => {
    fakeMain({ imported: 1, all: false, copies: 1, title: 'Tea (imported copy)' });
    await importConversationFile(new File(['{}'], 'tea.firebrand.json'));
    expect(store.showNotice).toHaveBeenCalledWith('This conversation was already here, so it came in as a copy: “Tea (imported copy)”.', store.INFO);
    store.showNotice.mockClear();
    fakeMain({ imported: 3, all: true, copies: 2 });
    await importConversationFile(new File(['{}'], 'all.firebrand.json'));
    expect(store.showNotice).toHaveBeenCalledWith('Imported 3 conversations. 2 were already here, so they are marked “(imported copy)”.', store.INFO);
  });

  // Retry on a refused file imported the same bytes again, to be refused again: those notices have Close only.
  it('says an empty or oversized file is so before reading it, naming the sizes, sends nothing, and offers no Retry', async () => {
    const main = fakeMain();
    await importConversationFile(new File([], 'empty.json'));
    expect(store.showNotice).toHaveBeenCalledWith('“empty.json” is empty; there is nothing to import.', store.REFUSED);
    const big = new File([], 'huge.json');
    Object.defineProperty(big, 'size', { value: CONVERSATION_FILE_MAX_BYTES + 50 * 1024 * 1024 });
    const read = vi.spyOn(big, 'slice');
    await importConversationFile(big);
    expect(String(store.showNotice.mock.calls[1]?.[0])).toContain('“huge.json” is 150.0 MiB; Firebrand can import a conversation file of at most 100.0 MiB.');
    expect(store.showNotice.mock.calls[1]?.[1]).toBe(store.REFUSED);
    expect(store.fail).not.toHaveBeenCalled();
    expect(read).not.toHaveBeenCalled();
    expect(main.calls).toEqual([]);
  });

  it('offers no Retry for a file main refuses for what it holds, and Retry where the same file may go in next time', async () => {
    const main = fakeMain();
    api.conversations['importFinish'] = vi.fn(async () => {
      throw new FirebrandError({ code: 'invalid-payload', message: '“notes.json” cannot be imported: it is not a conversation export; Firebrand imports the .firebrand.json files that Export and Export all save. Nothing was imported.' });
    });
    await importConversationFile(new File(['not json'], 'notes.json'));
    expect(store.showNotice).toHaveBeenCalledWith('“notes.json” cannot be imported: it is not a conversation export; Firebrand imports the .firebrand.json files that Export and Export all save. Nothing was imported.', store.REFUSED);
    expect(store.fail).not.toHaveBeenCalled();

    // Main's upload refusals that pass once the other imports are in, or once the file arrives whole: Retry.
    const uploads = new ImportUploads({ newId: () => 'up-2', maxStagedBytes: 10 });
    uploads.begin(8);
    api.conversations['importBegin'] = vi.fn(async ({ size }: { size: number }) => toFirebrandError(() => uploads.begin(size)));
    await importConversationFile(new File(['{"a":1}'], 'x.json'));
    expect(String(store.fail.mock.calls[0]?.[0])).toContain('Other imports (8 bytes) are still on their way in.');
    expect(store.fail.mock.calls[0]?.[1]).toBeTypeOf('function');
    api.conversations['importBegin'] = vi.fn(async ({ size }: { size: number }) => main.uploads.begin(size));
    api.conversations['importFinish'] = vi.fn(async ({ uploadId }: { uploadId: string }) => toFirebrandError(() => main.uploads.take(uploadId)));
    api.conversations['importChunk'] = vi.fn(async () => ({ received: 0 }));
    await importConversationFile(new File(['{"a":1}'], 'x.json'));
    expect(String(store.fail.mock.calls[1]?.[0])).toContain('of this file arrived, so nothing was imported. Import it again.');
    expect(store.fail.mock.calls[1]?.[1]).toBeTypeOf('function');
    expect(store.showNotice).toHaveBeenCalledTimes(1);
  });

  it('cancels the upload when a chunk fails, and shows main’s message', async () => {
    const main = fakeMain();
    api.conversations['importChunk'] = vi.fn(async () => {
      throw new Error('Lost the connection to Firebrand. Reconnecting…');
    });
    await importConversationFile(new File(['{"a":1}'], 'x.json'));
    expect(String(store.fail.mock.calls[0]?.[0])).toContain('Lost the connection');
    expect(main.calls).toEqual(['begin', 'cancel']);
    expect(main.uploads.stagedBytes()).toBe(0);
  });
});

describe('attaching a file', () => {
  it('refuses a file over the attachment limit with main’s wording, before reading or sending it', async () => {
    const add = vi.fn();
    api.attachments = { add };
    const file = new File([new Uint8Array(21_000_001)], 'notes.txt', { type: 'text/plain' });
    const read = vi.spyOn(file, 'arrayBuffer');
    await expect(addAttachment(file)).rejects.toThrow('“notes.txt” is 21,000,001 bytes; an attachment can be at most 20,971,520 bytes.');
    const huge = new File([], 'movie.mp4');
    Object.defineProperty(huge, 'size', { value: 60_000_000 });
    await expect(addAttachment(huge)).rejects.toThrow('“movie.mp4” is 57.2 MiB; an attachment can be at most 20.0 MiB.');
    expect(read).not.toHaveBeenCalled();
    expect(add).not.toHaveBeenCalled();
    expect(ATTACHMENT_MAX_BYTES).toBe(20 * 1024 * 1024);
  });

  it('keeps two files with the same bytes and different names as two attachments', () => {
    const a: AttachmentBlock = { type: 'attachment', id: 'd'.repeat(64), kind: 'text', name: 'a.txt', mime: 'text/plain', size: 3 };
    expect(sameAttachment(a, { ...a })).toBe(true);
    expect(sameAttachment(a, { ...a, name: 'b.txt' })).toBe(false);
  });

  it('names another file under a name already attached "name (2).ext", so the model can tell the two apart', () => {
    const notes: AttachmentBlock = { type: 'attachment', id: 'a'.repeat(64), kind: 'text', name: 'notes.txt', mime: 'text/plain', size: 3 };
    const other = { ...notes, id: 'b'.repeat(64) };
    const third = { ...notes, id: 'c'.repeat(64) };
    let list = pendingWith([], notes);
    // The same file again is the one attachment.
    expect(pendingWith(list, { ...notes })).toBe(list);
    list = pendingWith(list, other);
    list = pendingWith(list, third);
    expect(list.map((b) => b.name)).toEqual(['notes.txt', 'notes (2).txt', 'notes (3).txt']);
    // The second file attached again (as notes.txt) is the one named notes (2).txt.
    expect(pendingWith(list, { ...other })).toBe(list);
    expect(pendingWith([], { ...notes, name: 'Makefile' }).map((b) => b.name)).toEqual(['Makefile']);
    expect(pendingWith(pendingWith([], { ...notes, name: 'Makefile' }), { ...other, name: 'Makefile' }).map((b) => b.name)).toEqual(['Makefile', 'Makefile (2)']);
  });
});
