/**
 * Raw-socket clients for the serve-mode attack tests: bytes written with node:net, exactly as an attacker would
 * send them (no WebSocket library to tidy them up), and serve mode started as its own process so a crash is
 * seen as a dead process, not a test-runner warning.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface ServeChild {
  child: ChildProcess;
  port: number;
  token: string;
  output: () => string;
  alive: () => boolean;
  stop(): Promise<void>;
}

/** `src/main/serve/index.ts` under tsx, in its own process, on a free port of 127.0.0.1. */
export async function startServeChild(dataDir: string, extraArgs: string[] = []): Promise<ServeChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'src/main/serve/index.ts'), '--port', '0', '--data-dir', dataDir, ...extraArgs], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<URL>((done, fail) => {
    const check = () => {
      const m = /serving at (http:\/\/\S+)/.exec(out);
      if (m?.[1]) done(new URL(m[1]));
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}:\n${out}`)));
  });
  return {
    child,
    port: Number(url.port),
    token: url.searchParams.get('token') ?? '',
    output: () => out,
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Sends raw bytes, then collects what comes back until the server closes the socket (or `until` says enough). */
export function rawExchange(port: number, bytes: Buffer | string, until?: (received: Buffer) => boolean): Promise<Buffer> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d) => {
      chunks.push(d);
      if (until?.(Buffer.concat(chunks))) socket.destroy();
    });
    socket.on('close', () => done(Buffer.concat(chunks)));
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? undefined : fail(err)));
    socket.write(bytes);
  });
}

/** An HTTP/1.1 request's head, as raw text. */
export function httpHead(target: string, headers: Record<string, string>, method = 'GET'): string {
  return `${method} ${target} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

export function upgradeHeaders(host: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    Host: host,
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
    'Sec-WebSocket-Version': '13',
    ...extra,
  };
}

/** The status code of the first response line in `raw`, or 0. */
export function statusOf(raw: Buffer): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(raw.toString('latin1'))?.[1] ?? 0);
}

/** One WebSocket frame, built by hand so it can break every rule (RFC 6455 §5.2). */
export function frame(opts: { opcode: number; payload?: Buffer; fin?: boolean; rsv?: number; mask?: boolean; declaredLength?: bigint }): Buffer {
  const payload = opts.payload ?? Buffer.alloc(0);
  const length = opts.declaredLength ?? BigInt(payload.length);
  const head: number[] = [((opts.fin ?? true) ? 0x80 : 0) | ((opts.rsv ?? 0) << 4) | opts.opcode];
  const maskBit = (opts.mask ?? true) ? 0x80 : 0;
  let ext = Buffer.alloc(0);
  if (length < 126n) head.push(maskBit | Number(length));
  else if (length < 65536n) {
    head.push(maskBit | 126);
    ext = Buffer.alloc(2);
    ext.writeUInt16BE(Number(length));
  } else {
    head.push(maskBit | 127);
    ext = Buffer.alloc(8);
    ext.writeBigUInt64BE(length);
  }
  if (!(opts.mask ?? true)) return Buffer.concat([Buffer.from(head), ext, payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ (key[i % 4] ?? 0)));
  return Buffer.concat([Buffer.from(head), ext, key, masked]);
}

/**
 * Opens an authenticated socket by hand, writes `frames` after the 101, and resolves when the server closes
 * the connection, with the close code it sent (if it sent a close frame).
 */
export function wsAttack(port: number, token: string, frames: Buffer[]): Promise<{ handshake: number; closeCode: number | undefined }> {
  return new Promise((done, fail) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let handshake = 0;
    let sent = false;
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (!sent) {
        const end = buf.indexOf('\r\n\r\n');
        if (end === -1) return;
        handshake = statusOf(buf);
        buf = buf.subarray(end + 4);
        sent = true;
        if (handshake === 101) for (const f of frames) socket.write(f);
      }
    });
    socket.on('close', () => {
      // The server's close frame: 0x88, a length, then the 2-byte code.
      const at = buf.indexOf(0x88);
      const code = at !== -1 && buf.length >= at + 4 && (buf[at + 1] ?? 0) >= 2 ? buf.readUInt16BE(at + 2) : undefined;
      done({ handshake, closeCode: code });
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : fail(err)));
    socket.write(httpHead(`/ipc?token=${token}`, upgradeHeaders(`127.0.0.1:${port}`)));
  });
}
