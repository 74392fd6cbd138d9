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
        const version = await ok(await probeJson(baseUrl, '/api/version', headers), baseUrl, '/api/version');
        const tags = await ok(await probeJson(baseUrl, '/api/tags', headers), baseUrl, '/api/tags');
        const v = typeof rec(version)['version'] === 'string' ? (rec(version)['version'] as string) : null;
        const n = arrLen(rec(tags)['models']);
        return { ok: true, version: v, modelCount: n, detail: `Ollama ${v ?? '(unknown version)'}, ${countModels(n)}` };
      }
      case 'llama-server': {
        // A web page (another server) answers /health too: said as for the other probes, not as raw HTML.
        await ok(await probeJson(baseUrl, '/health', headers), baseUrl, '/health');
        const props = rec(await ok(await probeJson(baseUrl, '/props', headers), baseUrl, '/props'));
        const models = rec(await ok(await probeJson(baseUrl, '/v1/models', headers), baseUrl, '/v1/models'));
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
        const models = rec(await ok(await probeJson(baseUrl, '/v1/models', headers), baseUrl, '/v1/models'));
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

/** The probe's answer as JSON, or a failure that names the whole address asked (models audit #7: a base URL
 * ending in /v1 asked /v1/v1/models, and the error named only "/v1/models"). */
function ok(answer: ProbeAnswer, baseUrl: string, path: string): Promise<unknown> {
  const url = `${baseUrl.replace(/\/+$/, '')}${path}`;
  if (answer.status < 200 || answer.status >= 300) {
    const said = answer.json === undefined && /^\s*</.test(answer.text) ? 'a web page' : serverMessage(answer);
    return Promise.reject(new ProbeFailure(`${url} answered HTTP ${answer.status}: ${said}`));
  }
  if (answer.json === undefined) return Promise.reject(new ProbeFailure(`${url} did not answer JSON; is this the right kind of server?`));
  return Promise.resolve(answer.json);
}
