/**
 * Servers shared across the tests of one file: one llama-server per (script, reasoning format, context), started
 * on first use and stopped in afterAll. A test that kills or restarts its server takes it out of the pool.
 */
import { generateScriptedModel } from '../../support/scripted-gguf/generate';
import type { Script } from '../../support/scripted-gguf/scripts';
import { startLlamaServer, type LlamaServer } from './llama-server';

export interface PoolOptions {
  reasoningFormat?: 'deepseek' | 'none';
  /** `-c`, also written into the model as its trained context when larger than 4096. */
  ctx?: number;
  /** `--cache-ram` (llama-server.ts). */
  cacheRam?: number;
}

export class ServerPool {
  private readonly servers = new Map<string, Promise<LlamaServer>>();
  private readonly owned = new Set<LlamaServer>();

  get(script: Script, opts: PoolOptions = {}): Promise<LlamaServer> {
    const key = JSON.stringify([script.name, script.text, opts.reasoningFormat ?? 'deepseek', opts.ctx ?? 0, opts.cacheRam ?? null]);
    let server = this.servers.get(key);
    if (!server) {
      server = this.start(script, opts);
      this.servers.set(key, server);
      server.catch(() => this.servers.delete(key));
    }
    return server;
  }

  /** A server of its own for a test that will kill or restart it. */
  async own(script: Script, opts: PoolOptions = {}): Promise<LlamaServer> {
    const server = await this.start(script, opts);
    this.owned.add(server);
    return server;
  }

  /** Keeps track of a server a test restarted, so afterAll stops it. */
  adopt(server: LlamaServer): LlamaServer {
    this.owned.add(server);
    return server;
  }

  async stopAll(): Promise<void> {
    const all = [...(await Promise.allSettled(this.servers.values())).flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])), ...this.owned];
    await Promise.all(all.map((s) => s.stop()));
  }

  private start(script: Script, opts: PoolOptions): Promise<LlamaServer> {
    const ctx = opts.ctx;
    const model = generateScriptedModel(script, ctx && ctx > 4096 ? { contextLength: ctx } : {});
    return startLlamaServer({ model, reasoningFormat: opts.reasoningFormat ?? 'deepseek', alias: `scripted-${script.name}`, ...(ctx ? { ctx } : {}), ...(opts.cacheRam !== undefined ? { cacheRam: opts.cacheRam } : {}) });
  }
}
