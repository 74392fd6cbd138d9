import type { ConnectionKind, ConnectionTestResult } from '../../shared/connections';
import { describeProbeError, probeJson, serverMessage, type ProbeAnswer } from './probe-http';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const arrLen = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/**
 * "Test connection": asks the server what it is and how many models it has, with the same auth headers a chat
 * would carry; any failure is reported as exactly as the server or the network stated it.
 */
export async function testConnection(kind: ConnectionKind, baseUrl: string, headers: Record<string, string>): Promise<ConnectionTestResult> {
  try {
    switch (kind) {
      case 'ollama': {
        const version = await ok(await probeJson(baseUrl, '/api/version', headers), '/api/version');
        const tags = await ok(await probeJson(baseUrl, '/api/tags', headers), '/api/tags');
        const v = typeof rec(version)['version'] === 'string' ? (rec(version)['version'] as string) : null;
        const n = arrLen(rec(tags)['models']);
        return { ok: true, version: v, modelCount: n, detail: `Ollama ${v ?? '(unknown version)'}, ${countModels(n)}` };
      }
      case 'llama-server': {
        const health = await probeJson(baseUrl, '/health', headers);
        if (health.status !== 200) return { ok: false, error: `/health: ${serverMessage(health)}` };
        const props = rec(await ok(await probeJson(baseUrl, '/props', headers), '/props'));
        const models = rec(await ok(await probeJson(baseUrl, '/v1/models', headers), '/v1/models'));
        const build = typeof props['build_info'] === 'string' ? props['build_info'] : null;
        const nCtx = rec(props['default_generation_settings'])['n_ctx'];
        const n = arrLen(models['data']);
        return { ok: true, version: build, modelCount: n, detail: `llama-server ${build ?? ''}, ${countModels(n)}, n_ctx ${typeof nCtx === 'number' ? nCtx : '?'}`.replace('  ', ' ') };
      }
      case 'builtin':
        // Answered by the built-in engine's own status (chat-wiring), never over HTTP.
        return { ok: false, error: 'The built-in engine has no server to test; see Models for its state.' };
      case 'openai-compatible':
      case 'anthropic': {
        const models = rec(await ok(await probeJson(baseUrl, '/v1/models', headers), '/v1/models'));
        const n = arrLen(models['data']);
        return { ok: true, version: null, modelCount: n, detail: countModels(n) };
      }
    }
  } catch (err) {
    return { ok: false, error: err instanceof ProbeFailure ? err.message : describeProbeError(err) };
  }
}

class ProbeFailure extends Error {}

const countModels = (n: number) => `${n} ${n === 1 ? 'model' : 'models'}`;

function ok(answer: ProbeAnswer, path: string): Promise<unknown> {
  if (answer.status < 200 || answer.status >= 300) {
    return Promise.reject(new ProbeFailure(`${path} answered HTTP ${answer.status}: ${serverMessage(answer)}`));
  }
  if (answer.json === undefined) return Promise.reject(new ProbeFailure(`${path} did not answer JSON; is this the right kind of server?`));
  return Promise.resolve(answer.json);
}
