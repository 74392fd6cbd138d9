/**
 * The leg's HTTP: undici requests with abort and timeouts. It knows no dialect; framing and parsing happen
 * downstream. Auth headers are added here only, so they never enter a body, a record or a log.
 */
import { request, errors as undiciErrors } from './undici';

export interface LegRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** The exact bytes to send (already encoded by the dialect and stored by digest). */
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Time allowed before the server answers with headers (a model may load first). */
  headersTimeoutMs?: number;
  /** Longest silence allowed between two body chunks: a stall is reported, not waited out forever. */
  stallTimeoutMs?: number;
}

export interface LegResponse {
  status: number;
  /** The Content-Type the server gave, lower-cased; absent where it gave none (or the leg is not HTTP). */
  contentType?: string;
  body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
}

/**
 * Why a request failed before or while its body streamed, in words for the user. The leg knows an address, not the
 * connection: `message` says "the server at <origin>", and `naming` says the same words of a connection by its name
 * (an answer's failure names the connection as the banner does: shared connectionName).
 */
export class LegError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'aborted' | 'network',
    message: string,
    private readonly about?: (who: string) => string,
  ) {
    super(message);
    this.name = 'LegError';
  }

  /** These words with `who` (a connection's name) in place of the server's address. */
  naming(who: string): string {
    return this.about ? this.about(who) : this.message;
  }
}

/** A LegError whose words name the server: "The server at <origin>" here, `who` through `naming`. */
function about(kind: LegError['kind'], origin: string, words: (who: string) => string): LegError {
  const said = words(`the server at ${origin}`);
  return new LegError(kind, said.charAt(0).toUpperCase() + said.slice(1), words);
}

export async function sendRequest(req: LegRequest): Promise<LegResponse> {
  const origin = safeOrigin(req.url);
  try {
    const res = await request(req.url, {
      method: req.method,
      body: req.body,
      headers: { ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers },
      signal: req.signal,
      headersTimeout: req.headersTimeoutMs ?? 300_000,
      bodyTimeout: req.stallTimeoutMs ?? 120_000,
    });
    const body = res.body;
    const type = res.headers['content-type'];
    return {
      status: res.statusCode,
      ...(typeof type === 'string' ? { contentType: type.toLowerCase() } : {}),
      body: guardBody(body, origin),
      // As the streamed body: a stall while reading it whole read undici's own "Body Timeout Error".
      text: () => body.text().catch((err: unknown) => Promise.reject(toLegError(err, origin))),
    };
  } catch (err) {
    throw toLegError(err, origin);
  }
}

async function* guardBody(body: AsyncIterable<Uint8Array>, origin: string): AsyncIterable<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (err) {
    throw toLegError(err, origin);
  }
}

export function toLegError(err: unknown, origin: string): LegError {
  if (err instanceof LegError) return err;
  const code = errorCode(err);
  if (err instanceof Error && (err.name === 'AbortError' || code === 'UND_ERR_ABORTED')) {
    return new LegError('aborted', 'Stopped.');
  }
  if (err instanceof undiciErrors.BodyTimeoutError || code === 'UND_ERR_BODY_TIMEOUT') {
    return about('timeout', origin, (who) => `${who} stopped sending for too long; the stream was given up.`);
  }
  if (err instanceof undiciErrors.HeadersTimeoutError || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return about('timeout', origin, (who) => `${who} did not answer in time.`);
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH') {
    return about('unreachable', origin, (who) => `Cannot reach ${who} (${code}). Is it running, and is the address right?`);
  }
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
    return about('network', origin, (who) => `The connection to ${who} broke (${code}).`);
  }
  const detail = err instanceof Error ? err.message : String(err);
  return about('network', origin, (who) => `The request to ${who} failed: ${detail}`);
}

function errorCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    // undici wraps the socket error in `cause`; AggregateError (IPv4+IPv6 attempts) keeps them in `errors`.
    const next = (cur as { cause?: unknown; errors?: unknown[] }).cause ?? (cur as { errors?: unknown[] }).errors?.[0];
    cur = next;
  }
  return undefined;
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
