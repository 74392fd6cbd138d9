/**
 * A replay server on 127.0.0.1 that serves recorded wire bytes the way a real server would: in chunks of a
 * chosen size with delays between them, or cut mid-stream, or hanging, or answering with an error status.
 * Tests point Firebrand at it instead of a real Ollama or llama-server.
 *
 * Delays are part of a scenario (a realistic pace), never something a test may count on: a test that must see a
 * stream mid-way holds it there (`holdAfterChunks`) and lets it go on with `release()`, so a busy machine cannot
 * make the stream finish before the test looks.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReplayRoute {
  method?: string;
  path: string;
  status?: number;
  headers?: Record<string, string>;
  body: string | Buffer;
  /** Bytes per write; `'lines'` writes one line (NDJSON line or SSE line) at a time. Default: all at once. */
  chunk?: number | 'lines';
  /** Pause between writes, in milliseconds (pace only: assertions must not depend on it). */
  delayMs?: number;
  /**
   * Write this many chunks, then wait for `release()` before the rest: the stream stays mid-way until then. Several
   * counts hold it at each in turn (one `release()` each).
   */
  holdAfterChunks?: number | number[];
  /** Destroy the socket after this many bytes of body (a server that dies mid-stream). */
  cutAfterBytes?: number;
  /** Send the body, then never end the response. */
  hang?: boolean;
  /** Refuse with no response at all: the socket is destroyed as soon as the request arrives. */
  drop?: boolean;
  /** Take the request and never answer: no status, no headers (a server stuck before it writes anything). */
  silent?: boolean;
  /** Serve this route only to requests whose body passes (a summary request and an answer on one path). */
  when?: (body: string) => boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface ReplayServer {
  url: string;
  port: number;
  /** Replace the routes served from now on. */
  setRoutes(routes: ReplayRoute[]): void;
  requests: RecordedRequest[];
  /** Runs as each request arrives, before any answer is written (tests check what was committed by then). */
  setOnRequest(callback: ((req: RecordedRequest) => void) | undefined): void;
  /** How many streams wait at their `holdAfterChunks` point now. */
  readonly held: number;
  /** Lets every held stream go on; with none held, the next stream to reach a hold point passes it. */
  release(): void;
  close(): Promise<void>;
}

export function splitChunks(body: Buffer, chunk: ReplayRoute['chunk']): Buffer[] {
  if (chunk === undefined) return [body];
  if (chunk === 'lines') {
    const out: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < body.length; i++) {
      if (body[i] === 0x0a) {
        out.push(body.subarray(start, i + 1));
        start = i + 1;
      }
    }
    if (start < body.length) out.push(body.subarray(start));
    return out;
  }
  const out: Buffer[] = [];
  for (let i = 0; i < body.length; i += chunk) out.push(body.subarray(i, i + chunk));
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startReplayServer(initial: ReplayRoute[] = [], port = 0): Promise<ReplayServer> {
  let routes = initial;
  let onRequest: ((req: RecordedRequest) => void) | undefined;
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  let waiting: (() => void)[] = [];
  // A release that comes before the stream reached its hold point lets it pass that point when it gets there.
  let credits = 0;
  const hold = () => {
    if (credits > 0) {
      credits--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    if (waiting.length === 0) credits++;
    const now = waiting;
    waiting = [];
    for (const go of now) go();
  };
  // Resolves once the bytes are handed to the socket, so a cut that follows never drops them.
  const write = (res: ServerResponse, piece: Buffer) => new Promise<void>((resolve) => res.write(piece, () => resolve()));

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const method = req.method ?? 'GET';
    const recorded = { method, path, body: Buffer.concat(chunks).toString('utf8'), headers: { ...req.headers } };
    requests.push(recorded);
    onRequest?.(recorded);
    const route = routes.find((r) => r.path === path && (r.method ?? 'GET') === method && (r.when?.(recorded.body) ?? true));
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
      return;
    }
    if (route.drop) {
      req.socket.destroy();
      return;
    }
    open.add(res);
    res.on('close', () => open.delete(res));
    if (route.silent) return;
    res.writeHead(route.status ?? 200, { 'content-type': 'application/json', ...route.headers });
    res.flushHeaders();
    let sent = 0;
    const body = Buffer.isBuffer(route.body) ? route.body : Buffer.from(route.body, 'utf8');
    const pieces = splitChunks(body, route.chunk);
    const holds = new Set(([] as number[]).concat(route.holdAfterChunks ?? []));
    for (const [i, piece] of pieces.entries()) {
      if (res.destroyed) return;
      if (route.cutAfterBytes !== undefined && sent + piece.length > route.cutAfterBytes) {
        const keep = piece.subarray(0, route.cutAfterBytes - sent);
        if (keep.length > 0) await write(res, keep);
        res.socket?.destroy();
        return;
      }
      await write(res, piece);
      sent += piece.length;
      if (holds.has(i + 1)) await hold();
      if (route.delayMs) await sleep(route.delayMs);
    }
    if (res.destroyed) return;
    if (route.cutAfterBytes !== undefined) {
      res.socket?.destroy();
      return;
    }
    if (!route.hang) res.end();
  }

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    setRoutes: (next) => {
      routes = next;
    },
    requests,
    setOnRequest: (callback) => {
      onRequest = callback;
    },
    get held() {
      return waiting.length;
    },
    release,
    close: () =>
      new Promise<void>((resolve) => {
        for (const go of waiting.splice(0)) go();
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
