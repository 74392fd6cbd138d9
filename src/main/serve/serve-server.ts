/**
 * Serve mode: the same services without Electron. The built renderer is served over HTTP on 127.0.0.1 and the
 * IPC contract is carried over a WebSocket at /ipc. Every request and socket must carry the token printed at
 * start (query `token`, then a same-site cookie so the page's assets load); sockets from a foreign Origin are refused.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventChannel } from '../../shared/ipc';
import type { Services } from '../services';
import { contentSecurityPolicy } from './csp';
import { readStatic } from './static-files';

export interface ServeOptions {
  services: Services;
  rendererDir: string;
  port: number;
  host?: string;
  token?: string;
  log?: (message: string) => void;
}

export interface RunningServe {
  url: string;
  origin: string;
  token: string;
  server: Server;
  close(): Promise<void>;
}

const COOKIE = 'firebrand_token';

export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const log = options.log ?? ((m: string) => console.error(m));
  const { services } = options;
  let origin = '';

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch((err: unknown) => {
      log(`serve: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    const fromQuery = url.searchParams.get('token');
    if (!tokenMatches(fromQuery ?? cookieToken(req), token)) {
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('Firebrand: this address needs the token printed when serve mode started.\n');
    }
    const file = await readStatic(options.rendererDir, url.pathname);
    if (!file) return void res.writeHead(404).end();
    const headers: Record<string, string> = {
      'content-type': file.type,
      'content-security-policy': contentSecurityPolicy([origin.replace(/^http/, 'ws')]),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    };
    if (fromQuery) headers['set-cookie'] = `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    const allowed =
      url.pathname === '/ipc' &&
      tokenMatches(url.searchParams.get('token') ?? cookieToken(req), token) &&
      (req.headers.origin === undefined || req.headers.origin === origin);
    if (!allowed) {
      log(`serve: refused a socket (origin ${req.headers.origin ?? 'none'})`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  function attach(ws: WebSocket): void {
    const unsubscribe = services.hub.connect((channel: EventChannel, payload: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ t: 'event', channel, payload }));
    });
    ws.on('close', unsubscribe);
    ws.on('message', (data) => {
      let msg: { t?: unknown; id?: unknown; channel?: unknown; payload?: unknown };
      try {
        msg = JSON.parse(data.toString()) as typeof msg;
      } catch {
        log('serve: dropped a socket message that is not JSON');
        return;
      }
      if (msg.t !== 'invoke' || typeof msg.id !== 'number') return;
      const id = msg.id;
      void services.dispatcher.dispatch(msg.channel, msg.payload).then((result) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ t: 'result', id, result }));
      });
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function cookieToken(req: IncomingMessage): string | null {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, v] = part.trim().split('=');
    if (k === COOKIE && v) return v;
  }
  return null;
}

function tokenMatches(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
