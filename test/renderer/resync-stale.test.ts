/**
 * What a page re-reads once its link to serve mode is back (store/resync.ts), beyond the chat and the settings:
 * - the built-in engine's models being loaded: a `loaded:` event sent while the link was down left "Loading model…"
 *   on every later answer on that model (leftovers audit, found and left);
 * - the MCP servers and their states: an `mcp:changed` sent meanwhile was lost, and Settings → Tools kept showing a
 *   server as starting (or failed) after it had started (leftovers audit, found and left);
 * - the library and its downloads: a download that ended in the gap stayed "running" at its last percent, with Pause;
 * - Ollama pulls likewise, on the Models screen, and one that failed in the gap says so, with the reason (tabs #3);
 * - the connections: one renamed in another tab kept its old name in the picker's groups.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { McpServerInfo } from '../../src/shared/mcp';
import { connectBuiltinLoading, useBuiltinLoading } from '../../src/renderer/store/builtin-loading';
import { connectLibraryStore, useLibraryStore } from '../../src/renderer/store/library-slice';
import { useMcpStore, watchMcpServers } from '../../src/renderer/store/mcp-slice';
import { useConnectionsStore } from '../../src/renderer/store/connections-slice';
import type { ConnectionInfo } from '../../src/shared/connections';
import { connectModelsStore, rereadModelsScreen, useModelsStore } from '../../src/renderer/store/models-slice';
import type { PullProgress } from '../../src/shared/models';
import type { DownloadProgress, LibraryEntry, WaitingAnswer } from '../../src/shared/library';
import { resyncAfterReconnect } from '../../src/renderer/store/resync';
import { useStore } from '../../src/renderer/store/index';
import { fakeApi } from './helpers/fake-api';

function server(state: McpServerInfo['state']): McpServerInfo {
  return {
    id: 's1', name: 'files', transport: 'stdio', command: 'files-mcp', args: [], cwd: null, url: '', envNames: [], headerNames: [],
    enabled: true, startWithApp: false, timeoutSeconds: 60, state, error: null, tools: [],
  } as unknown as McpServerInfo;
}

let engineWaiting: WaitingAnswer[];
let servers: McpServerInfo[];
let library: LibraryEntry[];
let pullsReported: PullProgress[] | Error;
const pull = (pullId: string, model: string, percent = 80): PullProgress => ({ pullId, model, status: 'pulling', completedBytes: percent, totalBytes: 100, percent, bytesPerSecond: 10, etaSeconds: 2, state: 'running' });

beforeEach(() => {
  engineWaiting = [];
  servers = [server('ready')];
  library = [];
  pullsReported = [];
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      builtin: { status: () => Promise.resolve({ backend: null, running: true, loaded: [], loading: engineWaiting.map((w) => w.file), waiting: engineWaiting, modelsDir: '/m', unavailable: null }) },
      mcp: { list: () => Promise.resolve(servers) },
      library: { list: () => Promise.resolve(library) },
      models: {
        list: () => Promise.resolve([{ name: 'llama3.2:latest' }]),
        running: () => Promise.resolve([]),
        pulls: () => (pullsReported instanceof Error ? Promise.reject(pullsReported) : Promise.resolve(pullsReported)),
      },
      aliases: { list: () => Promise.resolve([]) },
      connections: { list: () => Promise.resolve([{ id: 'lm', kind: 'openai-compatible', label: 'LM Studio (desk)', baseUrl: 'http://127.0.0.1:1234', hasApiKey: false }]) },
    }),
  };
  useStore.setState({ activeId: null });
});

describe('a page back after its link to serve mode dropped', () => {
  it('stops saying "Loading model…" for a model whose load ended while the link was down', async () => {
    // The page heard that answer a1 waits for plain.gguf to load; the end went out while its link was down.
    useBuiltinLoading.setState({ waiting: { a1: { turnId: 'a1', file: 'plain.gguf', state: 'loading' } } });
    await resyncAfterReconnect();
    await expect.poll(() => useBuiltinLoading.getState().waiting).toEqual({});
  });

  it('says "Loading model…" for a model whose load began while the link was down', async () => {
    useBuiltinLoading.setState({ waiting: {} });
    engineWaiting = [{ turnId: 'a2', file: 'big.gguf', state: 'loading' }];
    await resyncAfterReconnect();
    await expect.poll(() => useBuiltinLoading.getState().waiting).toEqual({ a2: engineWaiting[0] });
  });

  it('a tab opened while a model loads says so too (it never heard it begin)', async () => {
    useBuiltinLoading.setState({ waiting: {} });
    engineWaiting = [{ turnId: 'a2', file: 'big.gguf', state: 'loading' }];
    connectBuiltinLoading((window as unknown as { firebrand: Parameters<typeof connectBuiltinLoading>[0] }).firebrand);
    await expect.poll(() => useBuiltinLoading.getState().waiting).toEqual({ a2: engineWaiting[0] });
  });

  it('shows the MCP servers as they are now, not as the last push before the drop said', async () => {
    watchMcpServers();
    useMcpStore.setState({ servers: [server('starting')] });
    await resyncAfterReconnect();
    await expect.poll(() => useMcpStore.getState().servers.map((s) => s.state)).toEqual(['ready']);
  });

  it('shows a download that ended while the link was down as done, and one cancelled in another tab as gone', async () => {
    const progress = (downloadId: string, file: string): DownloadProgress => ({ downloadId, file, source: `hf:o/r/${file}`, state: 'running', bytes: 80, total: 100, bytesPerSecond: 10, etaSeconds: 2 });
    library = [{ file: 'small.gguf', path: '/m/small.gguf', sizeBytes: 100, state: 'usable', download: null } as LibraryEntry];
    connectLibraryStore();
    useLibraryStore.setState({ downloads: { d1: progress('d1', 'small.gguf'), d2: progress('d2', 'other.gguf') } });
    await resyncAfterReconnect();
    await expect.poll(() => useLibraryStore.getState().entries.map((e) => e.file)).toEqual(['small.gguf']);
    await expect.poll(() => useLibraryStore.getState().downloads).toEqual({ d1: expect.objectContaining({ state: 'done', bytes: 100, total: 100 }) });
  });

  it('shows an Ollama pull that ended while the link was down as done; one still going as main last saw it', async () => {
    connectModelsStore();
    useModelsStore.setState({ pulls: { p1: pull('p1', 'llama3.2'), p2: pull('p2', 'qwen3:8b') } });
    pullsReported = [pull('p2', 'qwen3:8b', 90)];
    await resyncAfterReconnect();
    await expect.poll(() => useModelsStore.getState().pulls['p1']?.state).toBe('done');
    expect(useModelsStore.getState().pulls['p2']).toMatchObject({ state: 'running', percent: 90 });
  });

  // Tabs #3: it kept its last progress ("running", with Cancel) after the page was back.
  it('shows an Ollama pull that failed while the link was down as failed, with the reason main gave', async () => {
    connectModelsStore();
    useModelsStore.setState({ pulls: { p1: pull('p1', 'qwen3:8b') } });
    const error = 'Pulling qwen3:8b failed: write /root/.ollama/models/blobs: no space left on device';
    pullsReported = [{ ...pull('p1', 'qwen3:8b', 85), state: 'error', bytesPerSecond: null, etaSeconds: null, error }];
    await resyncAfterReconnect();
    await expect.poll(() => useModelsStore.getState().pulls['p1']).toMatchObject({ state: 'error', error, percent: 85 });
  });

  it('shows a pull that main no longer knows (serve mode restarted) as stopped, unless its model is there', async () => {
    connectModelsStore();
    useModelsStore.setState({ pulls: { p1: pull('p1', 'qwen3:8b'), p2: pull('p2', 'llama3.2') } });
    await resyncAfterReconnect();
    await expect.poll(() => useModelsStore.getState().pulls['p1']?.state).toBe('error');
    expect(useModelsStore.getState().pulls['p1']?.error).toBe('Pulling qwen3:8b stopped: Firebrand was restarted meanwhile. Ollama keeps what arrived: Pull again goes on from there.');
    expect(useModelsStore.getState().pulls['p2']?.state).toBe('done');
  });

  it('keeps a pull as it was where main cannot say how pulls went', async () => {
    connectModelsStore();
    useModelsStore.setState({ pulls: { p1: pull('p1', 'qwen3:8b') } });
    pullsReported = new Error('gone again');
    await rereadModelsScreen();
    expect(useModelsStore.getState().pulls['p1']).toMatchObject({ state: 'running', percent: 80 });
  });

  it('names the connections as saved now (one renamed in another tab)', async () => {
    useConnectionsStore.setState({ connections: [{ id: 'lm', kind: 'openai-compatible', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234', hasApiKey: false } as ConnectionInfo] });
    await resyncAfterReconnect();
    await expect.poll(() => useConnectionsStore.getState().connections.map((c) => c.label)).toEqual(['LM Studio (desk)']);
  });
});
