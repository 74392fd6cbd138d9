import { probeJson } from '../connections/probe-http';
import type { ModelDetails } from '../../shared/models';
import type { EngineConnection, ModelCapabilities } from './types';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});

/** How long a llama-server's answer is trusted before a send or the meter asks `/props` again (a restart with
 * another `-c` or model changes it; issue 13). Reading it is one local GET, so "old" is short. */
export const LLAMA_SERVER_PROPS_TTL_MS = 5_000;

/**
 * Capabilities per connection and model, from the server (DESIGN.md §7: never from model-name lists):
 * Ollama `/api/show` `capabilities`; llama-server `/props` (`modalities.vision`, `chat_template_caps`,
 * `default_generation_settings.n_ctx`). Cached, because every step needs them; llama-server's answer only for a
 * few seconds, since the server can be restarted with another window or model without the app knowing. A probe
 * that fails is not cached, so a server that was down is asked again next time.
 */
export class CapabilityCache {
  private readonly cache = new Map<string, { caps: ModelCapabilities; at: number }>();
  /** What each server said when last reached, kept while it cannot be (lastKnown); a later answer replaces it. */
  private readonly last = new Map<string, ModelCapabilities>();

  /**
   * `ollamaShow`: the model manager's shared `/api/show` cache, so the engine and the model list ask the server
   * once per model and read the answer through one parser. Used for Ollama connections that need no auth headers.
   */
  constructor(
    private readonly ollamaShow?: (baseUrl: string, model: string) => Promise<ModelDetails | null>,
    private readonly now: () => number = Date.now,
  ) {}

  /** `fresh`: ask the server now whatever the cache holds (before refusing a send on the window). */
  async get(connection: EngineConnection, model: string, opts: { fresh?: boolean } = {}): Promise<ModelCapabilities> {
    // A connection that describes its models itself (the built-in engine, from the file) is asked each time: the
    // file may have been replaced, and its answer is cached per file version where it is made.
    if (connection.describe) return connection.describe(model).catch(() => ({}));
    const key = `${connection.id}\u0000${connection.baseUrl}\u0000${model}`;
    const hit = this.cache.get(key);
    const stale = hit !== undefined && connection.kind === 'llama-server' && this.now() - hit.at > LLAMA_SERVER_PROPS_TTL_MS;
    if (hit && !stale && !opts.fresh) return hit.caps;
    let caps: ModelCapabilities | undefined;
    try {
      caps = await this.probe(connection, model);
    } catch {
      caps = undefined;
    }
    if (caps) {
      this.cache.set(key, { caps, at: this.now() });
      this.last.set(key, caps);
    } else this.cache.delete(key);
    return caps ?? {};
  }

  /**
   * What the server said about `model` when it was last reached (at this address), whatever `forget` dropped since;
   * undefined if it never was. While a llama-server is down the meter shows the window it was started with, not a
   * made-up 4K "the server decides" (real-engines audit D2).
   */
  lastKnown(connection: EngineConnection, model: string): ModelCapabilities | undefined {
    return this.last.get(`${connection.id}\u0000${connection.baseUrl}\u0000${model}`);
  }

  /** Forgets what a connection said (connection saved or tested, model list read, a context-size error). */
  forget(connectionId: string): void {
    for (const key of this.cache.keys()) if (key.startsWith(`${connectionId}\u0000`)) this.cache.delete(key);
  }

  private async probe(connection: EngineConnection, model: string): Promise<ModelCapabilities | undefined> {
    const headers = connection.authHeaders();
    if (connection.kind === 'ollama' && this.ollamaShow && Object.keys(headers).length === 0) {
      const details = await this.ollamaShow(connection.baseUrl, model);
      if (!details) return undefined;
      const caps = details.capabilities as string[];
      // Servers from before `capabilities` existed list none (every current model has `completion`): unknown.
      if (caps.length === 0) return { template: details.template };
      return { vision: caps.includes('vision'), tools: caps.includes('tools'), thinking: caps.includes('thinking'), template: details.template };
    }
    return probe(connection, model, headers);
  }
}

async function probe(connection: EngineConnection, model: string, headers: Record<string, string>): Promise<ModelCapabilities | undefined> {
  switch (connection.kind) {
    case 'ollama': {
      const show = await probeJson(connection.baseUrl, '/api/show', headers, { model });
      if (show.status !== 200) return undefined;
      const list = rec(show.json)['capabilities'];
      const caps = Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : undefined;
      const template = rec(show.json)['template'];
      if (!caps) return typeof template === 'string' ? { template } : {};
      return { vision: caps.includes('vision'), tools: caps.includes('tools'), thinking: caps.includes('thinking'), ...(typeof template === 'string' ? { template } : {}) };
    }
    case 'llama-server': {
      const props = await probeJson(connection.baseUrl, '/props', headers);
      if (props.status !== 200) return undefined;
      return capabilitiesFromProps(props.json);
    }
    case 'anthropic':
      // Every current Messages-API model takes images and tools; thinking is per model, and the API says so.
      return { vision: true, tools: true, thinking: true };
    case 'builtin':
      // Described by the connection itself (from the GGUF), above.
      return undefined;
    case 'openai-compatible':
      // A generic server reports nothing: tools stay off (issue 5: off unless supported), images are not refused.
      return { tools: false };
  }
}

/** What llama-server's `/props` says the loaded model can do, and its fixed window (conformance: props-deepseek). */
export function capabilitiesFromProps(json: unknown): ModelCapabilities {
  const p = rec(json);
  const nCtx = rec(p['default_generation_settings'])['n_ctx'];
  const template = typeof p['chat_template'] === 'string' ? p['chat_template'] : undefined;
  const tmplCaps = rec(p['chat_template_caps']);
  const out: ModelCapabilities = {
    vision: rec(p['modalities'])['vision'] === true,
    // Older servers have no chat_template_caps: then a template that mentions tools is the evidence.
    tools: 'supports_tools' in tmplCaps ? tmplCaps['supports_tools'] === true : template?.includes('tools') === true,
    thinking: template !== undefined && /enable_thinking|<think>|reasoning_content/.test(template),
  };
  if (typeof nCtx === 'number' && nCtx > 0) out.serverContext = nCtx;
  if (template !== undefined) out.template = template;
  return out;
}

/** The capability names the model list and the UI use (`vision`, `tools`, `thinking`), from the flags. */
export function capabilityNames(caps: ModelCapabilities): string[] {
  return (['vision', 'tools', 'thinking'] as const).filter((c) => caps[c] === true);
}
