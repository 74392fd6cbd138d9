/**
 * Round 9 left: Models → Load of a built-in model was still offered while an answer was loading a model the engine
 * did not hold yet (round 9 disabled it only while a loaded model answered). Main refused the click, and the refusal
 * stayed on screen after the engine was free. Now Load waits with why on hover for that state too; a refusal that
 * still happens (an answer in another tab took the engine between the status and the click) goes once a status
 * shows the engine free, and where the engine is free again already the load is made.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { LibraryRows } from '../../src/renderer/components/library/LibrarySection';
import { connectLibraryStore, loadBuiltin, useLibraryStore } from '../../src/renderer/store/library-slice';
import { useStore } from '../../src/renderer/store/index';
import { FirebrandError, type Settings } from '../../src/shared/ipc';
import type { BuiltinStatus, LibraryEntry } from '../../src/shared/library';
import { fakeApi } from './helpers/fake-api';

const entry = (file: string): LibraryEntry => ({
  file, path: `/m/${file}`, sizeBytes: 1, state: 'usable', reason: null, architecture: 'llama', parameterCount: null, quantization: 'F32',
  trainedContext: 4096, tools: false, thinking: false, vision: false, mmproj: null, sha256: null, download: null,
});
const FREE: BuiltinStatus = { backend: null, running: true, loaded: [], loading: [], waiting: [], modelsDir: '/m', unavailable: null };
/** An answer sent on long.gguf, which the engine is loading before its first token. */
const ANSWER_LOADING: BuiltinStatus = { ...FREE, loading: ['long.gguf'], waiting: [{ turnId: 't1', file: 'long.gguf', state: 'loading' }] };
/** The same answer, its model loaded, answering. */
const ANSWERING: BuiltinStatus = { ...FREE, loaded: [{ file: 'long.gguf', contextSize: 4096, requestedSize: 4096, memoryBytes: 1, unloadsAt: null, answering: true }] };
const ANSWERED: BuiltinStatus = { ...FREE, loaded: [{ file: 'long.gguf', contextSize: 4096, requestedSize: 4096, memoryBytes: 1, unloadsAt: null, answering: false }] };
const REFUSAL = 'The engine is answering on long.gguf now: load plain.gguf once that answer ends, or stop it first.';

const loadButton = (html: string, file: string) => new RegExp(`<button[^>]*aria-label="Load ${file.replace('.', '\\.')}"[^>]*>`).exec(html)?.[0] ?? '';

/** The rows as the Models screen shows them from the store (a server render reads no store, so the rows take it). */
const rows = () => {
  const { entries, status: shown } = useLibraryStore.getState();
  return renderToStaticMarkup(<LibraryRows entries={entries} status={shown} />);
};

let status: BuiltinStatus = FREE;
let changed: (e: { reason: string }) => void = () => undefined;
const loads: string[] = [];
let refuseLoads = 0;

beforeEach(() => {
  status = FREE;
  loads.length = 0;
  refuseLoads = 0;
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      library: { list: () => Promise.resolve([entry('long.gguf'), entry('plain.gguf')]), onChanged: (cb: typeof changed) => ((changed = cb), () => undefined) },
      builtin: {
        status: () => Promise.resolve(status),
        load: ({ file }: { file: string }) => {
          loads.push(file);
          if (refuseLoads > 0) {
            refuseLoads--;
            return Promise.reject(new FirebrandError({ code: 'conflict', message: REFUSAL }));
          }
          return Promise.resolve(status);
        },
      },
      models: { list: () => Promise.resolve([]) },
    }),
  };
  useStore.setState({ settings: { activeConnectionId: 'ollama' } as Settings });
  useLibraryStore.setState({ entries: [entry('long.gguf'), entry('plain.gguf')], status: FREE, error: null, errorUntilFree: false });
  connectLibraryStore();
});

describe('Models → Load while an answer loads its model', () => {
  it('is not offered for another model, and says why on hover', () => {
    useLibraryStore.setState({ status: ANSWER_LOADING });
    const html = rows();
    const plain = loadButton(html, 'plain.gguf');
    expect(plain).toContain('disabled=""');
    expect(plain).toContain('title="The engine is loading long.gguf for an answer: load plain.gguf once that answer ends."');
    // The model being loaded says so itself.
    expect(loadButton(html, 'long.gguf')).toContain('data-state="loading"');
  });

  it('is not offered while a Load from another tab loads another model', () => {
    useLibraryStore.setState({ status: { ...FREE, loading: ['long.gguf'] } });
    const plain = loadButton(rows(), 'plain.gguf');
    expect(plain).toContain('disabled=""');
    expect(plain).toContain('title="The engine is loading long.gguf: load plain.gguf once that load ends."');
  });

  it('is offered again once the engine is free', () => {
    useLibraryStore.setState({ status: ANSWERED });
    const plain = loadButton(rows(), 'plain.gguf');
    expect(plain).not.toContain('disabled');
    expect(plain).not.toContain('title=');
  });

  it('a refusal that still happens (a race) stays while the engine is busy and goes once it is free', async () => {
    refuseLoads = 1;
    status = ANSWER_LOADING;
    expect(await loadBuiltin('plain.gguf')).toBe(false);
    expect(useLibraryStore.getState().error).toBe(REFUSAL);
    // The page now knows the engine is busy: Load waits, with why.
    expect(loadButton(rows(), 'plain.gguf')).toContain('disabled=""');
    status = ANSWERING;
    changed({ reason: 'loaded:long.gguf' });
    await expect.poll(() => useLibraryStore.getState().status).toEqual(ANSWERING);
    expect(useLibraryStore.getState().error).toBe(REFUSAL);
    status = ANSWERED;
    changed({ reason: 'idle:long.gguf' });
    await expect.poll(() => useLibraryStore.getState().error).toBeNull();
    expect(loadButton(rows(), 'plain.gguf')).not.toContain('disabled');
  });

  it('a refusal whose cause ended before the page heard of it loads as asked', async () => {
    refuseLoads = 1;
    status = ANSWERED;
    expect(await loadBuiltin('plain.gguf')).toBe(true);
    expect(loads).toEqual(['plain.gguf', 'plain.gguf']);
    expect(useLibraryStore.getState().error).toBeNull();
  });

  it("another tab's answer does not wipe an error the screen shows (a refused rename)", async () => {
    useLibraryStore.setState({ error: 'plain.gguf already exists.' });
    status = ANSWERING;
    changed({ reason: 'loaded:long.gguf' });
    await expect.poll(() => useLibraryStore.getState().status).toEqual(ANSWERING);
    expect(useLibraryStore.getState().error).toBe('plain.gguf already exists.');
  });
});
