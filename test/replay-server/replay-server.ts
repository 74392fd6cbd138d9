/**
 * A replay server on 127.0.0.1 that serves recorded wire bytes the way a real server would: in chunks of a
 * chosen size with delays between them, or cut mid-stream, or hanging, or answering with an error status.
 * Tests point Firebrand at it instead of a real Ollama or llama-server.
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
  /** Pause between writes, in milliseconds. */
  delayMs?: number;
  /** Destroy the socket after this many bytes of body (a server that dies mid-stream). */
  cutAfterBytes?: number;
  /** Send the body, then never end the response. */
  hang?: boolean;
  /** Refuse with no response at all: the socket is destroyed as soon as the request arrives. */
  drop?: boolean;
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
    const route = routes.find((r) => r.path === path && (r.method ?? 'GET') === method);
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
    res.writeHead(route.status ?? 200, { 'content-type': 'application/json', ...route.headers });
    res.flushHeaders();
    let sent = 0;
    const body = Buffer.isBuffer(route.body) ? route.body : Buffer.from(route.body, 'utf8');
    for (const piece of splitChunks(body, route.chunk)) {
      if (res.destroyed) return;
      if (route.cutAfterBytes !== undefined && sent + piece.length > route.cutAfterBytes) {
        const keep = piece.subarray(0, route.cutAfterBytes - sent);
        if (keep.length > 0) res.write(keep);
        await sleep(20);
        res.socket?.destroy();
        return;
      }
      res.write(piece);
      sent += piece.length;
      if (route.delayMs) await sleep(route.delayMs);
    }
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
