/**
 * Serve mode: the same services without Electron. The built renderer is served over HTTP (127.0.0.1 unless
 * `--host`) and the IPC contract is carried over a WebSocket at /ipc.
 *
 * Who gets in (issue 15):
 * - the token printed at start is the one credential: the page (`/?token=…`) and the socket (`/ipc?token=…`)
 *   need it. It travels only in those URLs, never in a cookie: cookies ignore ports, so a cookie would be sent
 *   to every other service on the same host (a model-written link to another 127.0.0.1 port received it).
 *   The renderer's scripts and styles are the app's public code and load without it;
 * - every request must name an allowed Host (an IP address, `localhost`, or `--allow-host` names), which
 *   defeats DNS rebinding; a browser socket's Origin must be the host the request came in on;
 * - malformed requests (a request target `new URL` cannot read, a bad `%` escape) get a 400; nothing a client
 *   sends can throw out of a handler.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { WebSocketServer } from 'ws';
import type { Services } from '../services';
import { contentSecurityPolicy } from './csp';
import { allowedHost, originMatchesHost, requestPath, tokenProblem } from './serve-policy';
import { readStatic, resolveStatic } from './static-files';

export interface ServeOptions {
  /**
   * The services, or their promise: serve mode listens (and serves the page's files) while it still loads them,
   * and a socket's upgrade waits for them, so the page's first requests queue in its bridge instead of failing.
   */
  services: Services | Promise<Services>;
  rendererDir: string;
  port: number;
  host?: string;
  token?: string;
  /** Host names (besides IP addresses and localhost) the server answers to: `--allow-host`. */
  allowHosts?: string[];
  log?: (message: string) => void;
}

export interface RunningServe {
  /** The first address to open, with the token. */
  url: string;
  /** Every address to open: one per network interface when bound to all of them. */
  urls: string[];
  origin: string;
  token: string;
  server: Server;
  close(): Promise<void>;
}

/** The cookie earlier versions set; cleared on every page load so no browser keeps sending it. */
const OLD_COOKIE = 'firebrand_token';

const TEXT = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
/**
 * The build names every file under assets/ by a hash of its content, so a browser may keep them for good: a
 * reload, or the next start on the same port, takes the scripts from its cache, and V8 their compiled code once it
 * has seen them twice, instead of fetching, parsing and compiling them again. The page itself is never kept: it
 * names this build's assets.
 */
const KEEP_FOR_GOOD = 'private, max-age=31536000, immutable';
const NEEDS_TOKEN = 'Firebrand: open the address serve mode printed when it started (it ends with ?token=…). A token from an earlier start no longer works.\n';

export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const host = options.host ?? '127.0.0.1';
  // A name serve mode was told to bind to is one the user will open it by.
  const allowHosts = [...(options.allowHosts ?? []), ...(isIP(host) === 0 ? [host] : [])];
  if (options.token !== undefined) {
    const problem = tokenProblem(options.token);
    if (problem) throw new Error(problem);
  }
  const token = options.token ?? randomBytes(24).toString('base64url');
  const log = options.log ?? ((m: string) => console.error(m));
  const { services } = options;

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch((err: unknown) => {
      log(`serve: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500, TEXT).end();
      else res.destroy();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const name = allowedHost(req.headers.host, allowHosts);
    if (!name) return void res.writeHead(403, TEXT).end(unknownHost(req.headers.host));
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, TEXT).end();
    const target = requestPath(req.url);
    if (!target) return void res.writeHead(400, TEXT).end('Firebrand: that address is malformed.\n');
    const named = resolveStatic(options.rendererDir, target.path);
    if (!named) return void res.writeHead(404, TEXT).end();
    const isPage = named.name === 'index.html';
    if (isPage && !tokenMatches(target.query.get('token'), token)) {
      return void res.writeHead(401, { ...TEXT, 'set-cookie': clearOldCookie() }).end(NEEDS_TOKEN);
    }
    const file = await readStatic(named.file);
    if (!file) return void res.writeHead(404, TEXT).end();
    const headers: Record<string, string> = {
      'content-type': file.type,
      // The socket is on the host the page was opened by, whatever address serve mode is bound to.
      'content-security-policy': contentSecurityPolicy([`ws://${name}`]),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': named.name.startsWith('assets/') ? KEEP_FOR_GOOD : 'no-store',
    };
    if (isPage) headers['set-cookie'] = clearOldCookie();
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  // The socket side (ws and serve-socket.ts, four fifths of serve mode's entry) loads once the server listens:
  // the start prints its address sooner, and an upgrade waits for it as it waits for the services (bench/start).
  let wss: WebSocketServer | undefined;
  let socketSide: Promise<{ wss: WebSocketServer; attach: typeof import('./serve-socket').attachSocket }> | undefined;
  const loadSocketSide = () =>
    (socketSide ??= Promise.all([import('ws'), import('./serve-socket')]).then(([{ WebSocketServer }, { attachSocket, MAX_FRAME_BYTES }]) => {
      wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
      return { wss, attach: attachSocket };
    }));
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // A client that resets mid-refusal must not throw out of the process.
    socket.on('error', () => socket.destroy());
    const refuse = (status: string, why: string) => {
      log(`serve: refused a socket: ${why}`);
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    const name = allowedHost(req.headers.host, allowHosts);
    if (!name) return refuse('403 Forbidden', `unknown host ${JSON.stringify(req.headers.host ?? '')}`);
    const target = requestPath(req.url);
    if (!target) return refuse('400 Bad Request', 'malformed request target');
    if (target.path !== '/ipc') return refuse('404 Not Found', `no socket at ${target.path.slice(0, 100)}`);
    if (!tokenMatches(target.query.get('token'), token)) return refuse('403 Forbidden', 'no valid token');
    if (!originMatchesHost(req.headers.origin, name)) return refuse('403 Forbidden', `origin ${req.headers.origin ?? ''} is not ${name}`);
    // Upgraded at once, while the services may still load: attachSocket holds the frames that come meanwhile.
    loadSocketSide().then(
      (side) => side.wss.handleUpgrade(req, socket, head, (ws) => side.attach(ws, services, log)),
      () => socket.destroy(), // Logged once, below: the page sees the link closed and says so.
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  // Started now, not at the first upgrade; a failure to load is the log's to say (an unhandled rejection here ended
  // the process).
  loadSocketSide().catch((err: unknown) => log(`serve: the socket side did not load, so no page can reach main: ${err instanceof Error ? err.message : String(err)}`));
  const port = (server.address() as AddressInfo).port;
  const urls = openableHosts(host).map((h) => `http://${h.includes(':') ? `[${h}]` : h}:${port}/?token=${token}`);
  const first = urls[0] ?? `http://127.0.0.1:${port}/?token=${token}`;
  return {
    url: first,
    urls,
    origin: new URL(first).origin,
    token,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss?.clients ?? []) client.terminate();
        wss?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The addresses a browser can open: the bound one, or (bound to all) loopback and each interface's. */
function openableHosts(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [host];
  const v6 = host === '::';
  const out = ['127.0.0.1'];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal || (a.family === 'IPv6' && (!v6 || a.address.startsWith('fe80')))) continue;
      out.push(a.address);
    }
  }
  return out;
}

function unknownHost(header: string | undefined): string {
  return (
    `Firebrand: this server does not answer to the name ${JSON.stringify((header ?? '').slice(0, 100))}. ` +
    'Open it by its IP address, or start serve mode with --allow-host NAME.\n'
  );
}

function clearOldCookie(): string {
  return `${OLD_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`;
}

function tokenMatches(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
