import type { ConnectionKind, ConnectionTestResult } from '../../shared/connections';
import { describeProbeError, probeJson, serverMessage, type ProbeAnswer } from './probe-http';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const arrLen = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/**
 * "Test connection": asks the server what it is and how many models it has, with the same auth headers a chat
 * would carry; any failure is reported as exactly as the server or the network stated it. `name`: the saved
 * connection's (shared connectionName), which a failure says with the address, as the banner and an answer do; absent
 * for an address typed and not saved yet, which is said alone.
 */
export async function testConnection(kind: ConnectionKind, baseUrl: string, headers: Record<string, string>, name?: string): Promise<ConnectionTestResult> {
  const ok = (answer: ProbeAnswer, path: string) => okJson(answer, baseUrl, path, name);
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
        // A web page (another server) answers /health too: said as for the other probes, not as raw HTML.
        await ok(await probeJson(baseUrl, '/health', headers), '/health');
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
    if (!(err instanceof ProbeFailure)) return { ok: false, error: describeProbeError(err, name !== undefined ? { name, baseUrl, inSettings: true } : undefined) };
    // A server that answers, but not at the kind's own paths: it may be a server of another kind.
    const other = err.status === 404 ? await otherKind(kind, baseUrl, headers) : null;
    return { ok: false, error: other ? `${err.message}. ${other}` : err.message };
  }
}

/**
 * What a server that answered 404 at the chosen kind's paths is instead, in a sentence, or null: a llama-server
 * (or another OpenAI-compatible server) added as Ollama, or an Ollama added as llama-server, said only "…/api/version
 * answered HTTP 404: File Not Found" (first-hour audit F4). One quick look at the other kind's list.
 */
export async function otherKind(kind: ConnectionKind, baseUrl: string, headers: Record<string, string>): Promise<string | null> {
  try {
    if (kind === 'ollama') {
      const models = await probeJson(baseUrl, '/v1/models', headers, undefined, 3_000);
      if (models.status !== 200 || !Array.isArray(rec(models.json)['data'])) return null;
      return 'It is not Ollama: it lists its models at /v1/models, as llama-server and other OpenAI-compatible servers do. Add it in Settings → Connections as llama-server (or openai-compatible).';
    }
    if (kind === 'llama-server') {
      const version = await probeJson(baseUrl, '/api/version', headers, undefined, 3_000);
      const v = rec(version.json)['version'];
      if (version.status !== 200 || typeof v !== 'string') return null;
      return `It is Ollama ${v}, not llama-server: add it in Settings → Connections as ollama, or give its address as the Ollama address.`;
    }
  } catch {
    // Nothing more to say than the first failure.
  }
  return null;
}

class ProbeFailure extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

const countModels = (n: number) => `${n} ${n === 1 ? 'model' : 'models'}`;

/** The probe's answer as JSON, or a failure that names the whole address asked (models audit #7: a base URL
 * ending in /v1 asked /v1/v1/models, and the error named only "/v1/models"), after the connection's name if any. */
function okJson(answer: ProbeAnswer, baseUrl: string, path: string, name?: string): Promise<unknown> {
  const url = `${name !== undefined ? `${name} at ` : ''}${baseUrl.replace(/\/+$/, '')}${path}`;
  if (answer.status < 200 || answer.status >= 300) {
    // A web page is named by its title (serverMessage), never shown as markup.
    return Promise.reject(new ProbeFailure(`${url} answered HTTP ${answer.status}: ${serverMessage(answer)}`, answer.status));
  }
  if (answer.json === undefined) return Promise.reject(new ProbeFailure(`${url} did not answer JSON; is this the right kind of server?`));
  return Promise.resolve(answer.json);
}
