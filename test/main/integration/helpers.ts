/**
 * Services against an Ollama replay, for the integration gap tests: a GPU probe fed the recorded nvidia-smi
 * output (an RTX 3060, 12 GB), `/api/show` bodies from test/fixtures/ollama-models, and a way to wait for answers.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createServices, type Services, type ServicesOptions } from '../../../src/main/services';
import type { ProbeHost } from '../../../src/main/gpu/types';
import type { Turn } from '../../../src/shared/turn';
import { ollamaChatStream, TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';

export const fixture = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');

/** A Linux box whose nvidia-smi reports one 12 GB card; nothing else answers. */
export const GPU_12GB: ProbeHost = {
  platform: 'linux',
  run: (cmd) => Promise.resolve(cmd === 'nvidia-smi' ? { ok: true, stdout: fixture('gpu/nvidia-smi-one-gpu.txt') } : { ok: false, stdout: '' }),
  readFile: () => Promise.resolve(null),
  listDir: () => Promise.resolve([]),
};

/** /api/tags with llama3.1:8b (4.9 GB, the worked example) added to the two stock models. */
export function tagsWithLlama31(): string {
  const tags = JSON.parse(TAGS_BODY) as { models: Record<string, unknown>[] };
  const llama = { ...tags.models[0], name: 'llama3.1:8b', model: 'llama3.1:8b', size: 4_920_753_328, digest: '46e0c10c039e' };
  return JSON.stringify({ models: [...tags.models, llama] });
}

export function ollama(extra: ReplayRoute[] = [], tags = TAGS_BODY): ReplayRoute[] {
  return [
    ...extra,
    { path: '/api/tags', body: tags },
    { path: '/api/version', body: '{"version":"0.12.6"}' },
    { path: '/api/ps', body: '{"models":[]}' },
    { method: 'POST', path: '/api/chat', body: ollamaChatStream(['Fine', '.']), chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' } },
  ];
}

export function tempServices(replay: ReplayServer, options: Partial<ServicesOptions> = {}): { services: Services; dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'firebrand-int-'));
  const services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, probeHost: GPU_12GB, chat: { titles: false }, ...options });
  return {
    services,
    dir,
    cleanup: () => {
      services.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The set-up of a file whose tests share one replay server answering `routes` and each make their own Services on
 * a new folder (`start`), closed and removed after the test; the server's requests are forgotten between tests.
 */
export function servicesSuite(routes: ReplayRoute[] = []): { replay: ReplayServer; start(options?: Partial<ServicesOptions>): ReturnType<typeof tempServices> } {
  let cleanup: (() => void) | undefined;
  const suite = {
    replay: undefined as unknown as ReplayServer,
    start(options: Partial<ServicesOptions> = {}) {
      const t = tempServices(suite.replay, options);
      cleanup = t.cleanup;
      return t;
    },
  };
  beforeAll(async () => {
    suite.replay = await startReplayServer(routes);
  });
  afterAll(() => suite.replay.close());
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
    suite.replay.requests.length = 0;
  });
  return suite;
}

export async function settle(s: Services, conversationId: string): Promise<Turn[]> {
  await expect.poll(() => s.chat.activeCount).toBe(0);
  return (await s.handlers['conversations:open']({ conversationId })).turns;
}

type ChatBody = { model: string; messages: { role: string; content: string }[]; options?: Record<string, unknown>; think?: unknown };

export function chatBodies(replay: ReplayServer): ChatBody[] {
  return replay.requests.filter((r) => r.path === '/api/chat').map((r) => JSON.parse(r.body) as ChatBody);
}
