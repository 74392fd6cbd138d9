/**
 * Two Ollama stand-ins, the one in Settings ("local") and a GPU box saved as a second Ollama connection: the setup of
 * the tests of a second Ollama in use. Registers its own hooks; each test's services are cleaned up after it, and
 * both servers' request logs emptied.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ReplayServer } from '../../replay-server/replay-server';
import type { Services } from '../../../src/main/services';
import { tempServices } from '../integration/helpers';

export interface SecondOllama {
  /** The Ollama in Settings. Set once the suite's hooks ran. */
  local: ReplayServer;
  gpuBox: ReplayServer;
  /** Services on the Ollama in Settings, with the GPU box saved as a second Ollama connection and in use. */
  withGpuBoxActive(): Promise<{ h: Services['handlers']; services: Services; id: string }>;
}

export function useSecondOllama(startLocal: () => Promise<ReplayServer>, startGpuBox: () => Promise<ReplayServer>): SecondOllama {
  let cleanup: (() => void) | undefined;
  const s: SecondOllama = {
    local: undefined as unknown as ReplayServer,
    gpuBox: undefined as unknown as ReplayServer,
    async withGpuBoxActive() {
      const t = tempServices(s.local);
      cleanup = t.cleanup;
      const h = t.services.handlers;
      const { id } = await h['connections:save']({ kind: 'ollama', label: 'GPU box', baseUrl: s.gpuBox.url });
      await h['settings:update']({ activeConnectionId: id });
      return { h, services: t.services, id };
    },
  };
  beforeAll(async () => {
    s.local = await startLocal();
    s.gpuBox = await startGpuBox();
  });
  afterAll(async () => {
    await s.local?.close();
    await s.gpuBox?.close();
  });
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
    s.local.requests.length = 0;
    s.gpuBox.requests.length = 0;
  });
  return s;
}
