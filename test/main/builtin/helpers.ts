/**
 * The built-in engine for tests: the real engine process (src/main/builtin/engine-process.ts, bundled once per run) on
 * scripted GGUFs from test/support/scripted-gguf, in a models folder of their own. One thread: this machine's two
 * cores are shared by other test runs, and ggml's spinning thread pool crawls when it is oversubscribed.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { forkSpawner } from '../../../src/main/builtin/fork-spawner';
import type { EngineSpawner } from '../../../src/main/builtin/engine-host';
import { createServices, type Services, type ServicesOptions } from '../../../src/main/services';
import type { SendResult } from '../../../src/shared/ipc';
import type { Turn } from '../../../src/shared/turn';
import { generateScriptedModel, type ScriptedModelOptions } from '../../support/scripted-gguf/generate';
import type { Script } from '../../support/scripted-gguf/scripts';

export const ENGINE_ENTRY = fileURLToPath(new URL('../../../src/main/builtin/engine-process.ts', import.meta.url));

export function testSpawner(log: (line: string) => void = () => {}): EngineSpawner {
  // The entry bundled once for this test run (test/support/worker-bundles.ts): no tsx boot per engine process.
  const bundle = process.env.FIREBRAND_WORKER_BUNDLES ? join(process.env.FIREBRAND_WORKER_BUNDLES, 'builtin-engine.js') : undefined;
  if (bundle && existsSync(bundle)) return forkSpawner({ entry: bundle, env: { FIREBRAND_BUILTIN_THREADS: '1' }, log });
  return forkSpawner({ entry: ENGINE_ENTRY, execArgv: ['--import', 'tsx'], env: { FIREBRAND_BUILTIN_THREADS: '1' }, log });
}

/** A data folder whose models folder holds the given scripted models, named `<key>.gguf`. */
export function dataDirWith(models: Record<string, Script | { script: Script; opts: ScriptedModelOptions }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'firebrand-builtin-'));
  mkdirSync(join(dir, 'models'), { recursive: true });
  for (const [name, m] of Object.entries(models)) {
    const path = 'script' in m ? generateScriptedModel(m.script, m.opts) : generateScriptedModel(m);
    copyFileSync(path, join(dir, 'models', `${name}.gguf`));
  }
  return dir;
}

export function builtinServices(dataDir: string, options: Partial<ServicesOptions> = {}): Services {
  return createServices({ dataDir, builtinEngine: testSpawner(), log: () => {}, ...options, chat: { titles: false, maxSteps: 3, ...options.chat } });
}

/** Sends to a built-in model and waits until the whole answer (every step) has ended. */
export async function ask(services: Services, model: string, text: string, extra: { conversationId?: string; think?: 'on' | 'off' } = {}): Promise<{ sent: SendResult; turns: Turn[] }> {
  const sent = await services.handlers['chat:send']({ conversationId: extra.conversationId ?? null, text, model, connectionId: 'builtin', ...(extra.think ? { think: extra.think } : {}) });
  await expect.poll(() => services.chat.activeCount, { timeout: 60_000, interval: 50 }).toBe(0);
  const view = await services.handlers['conversations:open']({ conversationId: sent.conversationId });
  return { sent, turns: view.turns };
}

export function cleanup(services: Services | undefined, dir: string | undefined): void {
  services?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
