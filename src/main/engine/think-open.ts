import { probeJson } from '../connections/probe-http';
import { endsInsideThink } from './think';
import type { EngineConnection } from './types';

/**
 * Whether llama-server's rendered prompt ends inside an open think block, asked once per connection, model and
 * think setting through `/apply-template` (conformance: apply-template-deepseek). Templates that pre-fill
 * `<think>\n` make the model's first bytes reasoning with no open tag; only then does the splitter start inside
 * (DESIGN.md §4: known, not guessed). A failed probe answers false and is asked again next time.
 */
export class ThinkOpenCache {
  private readonly cache = new Map<string, boolean>();

  async get(connection: EngineConnection, model: string, enableThinking: boolean | undefined): Promise<boolean | undefined> {
    if (connection.kind !== 'llama-server') return undefined;
    const key = `${connection.id}\u0000${connection.baseUrl}\u0000${model}\u0000${String(enableThinking)}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    try {
      const body: Record<string, unknown> = { messages: [{ role: 'user', content: 'Hi' }] };
      if (enableThinking !== undefined) body['chat_template_kwargs'] = { enable_thinking: enableThinking };
      const res = await probeJson(connection.baseUrl, '/apply-template', connection.authHeaders(), body, 5_000);
      const prompt = (res.json as { prompt?: unknown } | undefined)?.prompt;
      if (res.status !== 200 || typeof prompt !== 'string') return undefined;
      const open = endsInsideThink(prompt);
      this.cache.set(key, open);
      return open;
    } catch {
      return undefined;
    }
  }
}
