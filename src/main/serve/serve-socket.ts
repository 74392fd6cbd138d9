/**
 * One authenticated serve-mode socket: carries invokes to the dispatcher and events back. Everything a client
 * sends is untrusted bytes (issue 15): a frame that is not JSON, JSON that is not an invoke object (`null`,
 * `[]`, `42`), a protocol error (bad UTF-8, an unmasked frame, a bad opcode, a frame over the size limit) ends
 * that message or that socket, never the process.
 */
import type { WebSocket, RawData } from 'ws';
import type { EventChannel } from '../../shared/ipc';
import type { Services } from '../services';
import { runInWorker } from '../workers/run-in-worker';
import { batchEvents } from '../ipc/event-batch';

/** The largest frame a socket accepts: an import file (64 MiB of text) or a 20 MiB attachment as base64. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024 + 64 * 1024;
/** Frames above this are parsed in a worker thread: JSON.parse of tens of MiB would stall every other socket. */
export const OFF_THREAD_FRAME_BYTES = 1024 * 1024;

interface Invoke {
  id: number;
  channel: unknown;
  payload: unknown;
}

/**
 * `services` may still be loading (serve mode listens first): the socket opens at once, so a page's first
 * requests leave it as soon as its first script runs, and frames that come meanwhile wait for the services, in
 * order (bench/start).
 */
export function attachSocket(ws: WebSocket, loading: Services | Promise<Services>, log: (message: string) => void): void {
  // ws reports protocol errors here and closes the socket itself (1002/1007/1009); without a listener the
  // 'error' event would throw out of the process.
  ws.on('error', (err) => log(`serve: closed a socket after a protocol error: ${err.message}`));
  const events = batchEvents((channel: EventChannel, payload: unknown) => send(ws, { t: 'event', channel, payload }, log));
  let services: Services | undefined;
  const waiting: [RawData, boolean][] = [];
  ws.on('message', (data, isBinary) => (services ? receive(data, isBinary) : waiting.push([data, isBinary])));
  const start = (ready: Services) => {
    if (ws.readyState !== ws.OPEN) return;
    services = ready;
    const unsubscribe = ready.hub.connect(events.event);
    ws.on('close', unsubscribe);
    for (const [data, isBinary] of waiting.splice(0)) receive(data, isBinary);
  };
  if (loading instanceof Promise) loading.then(start, () => ws.terminate());
  else start(loading);
  // Large frames are parsed one at a time per socket, so one client cannot start a thread per frame.
  let large: Promise<void> = Promise.resolve();
  function receive(data: RawData, isBinary: boolean): void {
    if (isBinary) return log('serve: dropped a binary socket message');
    const bytes = toBytes(data);
    if (bytes.byteLength <= OFF_THREAD_FRAME_BYTES) return void handle(parseSmall(bytes));
    large = large.then(() => parseLarge(bytes).then(handle));
  }

  function handle(value: unknown): void {
    const msg = asInvoke(value);
    if (!msg || !services) return;
    services.dispatcher
      .dispatch(msg.channel, msg.payload)
      .then((result) => {
        // Events the invoke emitted (a send's turns) still arrive before its result, as they did unbatched.
        events.flush();
        send(ws, { t: 'result', id: msg.id, result }, log);
      })
      .catch((err: unknown) => log(`serve: an invoke failed outside the dispatcher: ${err instanceof Error ? err.message : String(err)}`));
  }

  function parseSmall(bytes: Uint8Array): unknown {
    try {
      return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as unknown;
    } catch {
      log('serve: dropped a socket message that is not JSON');
      return undefined;
    }
  }

  async function parseLarge(bytes: Uint8Array): Promise<unknown> {
    try {
      return await runInWorker('parse-json', bytes);
    } catch (err) {
      log(`serve: dropped a large socket message: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  function asInvoke(value: unknown): Invoke | undefined {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      if (value !== undefined) log('serve: dropped a socket message that is not an object');
      return undefined;
    }
    const msg = value as Record<string, unknown>;
    if (msg['t'] !== 'invoke' || typeof msg['id'] !== 'number' || !Number.isSafeInteger(msg['id'])) return undefined;
    return { id: msg['id'], channel: msg['channel'], payload: msg['payload'] };
  }
}

function send(ws: WebSocket, message: unknown, log: (message: string) => void): void {
  if (ws.readyState !== ws.OPEN) return;
  try {
    ws.send(JSON.stringify(message));
  } catch (err) {
    log(`serve: could not send on a socket: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}
