/**
 * In serve mode there is no preload: this shim builds the same `window.firebrand` from the contract over a
 * WebSocket to the serving process, reconnecting when the socket drops.
 */
import { buildBridge, type FirebrandApi } from '../shared/bridge';
import type { EventChannel, IpcResult } from '../shared/ipc';

interface Pending {
  resolve: (result: IpcResult<unknown>) => void;
}

export function createServeBridge(location: Location): FirebrandApi {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ipc?token=${encodeURIComponent(token)}`;
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  let nextId = 1;
  let socket: WebSocket;

  const connect = () => {
    socket = new WebSocket(wsUrl);
    socket.addEventListener('open', () => {
      for (const msg of queue.splice(0)) socket.send(msg);
    });
    socket.addEventListener('message', (ev: MessageEvent<string>) => {
      const msg = JSON.parse(ev.data) as { t: string; id?: number; result?: IpcResult<unknown>; channel?: EventChannel; payload?: unknown };
      if (msg.t === 'result' && msg.id !== undefined && msg.result) {
        pending.get(msg.id)?.resolve(msg.result);
        pending.delete(msg.id);
      } else if (msg.t === 'event' && msg.channel) {
        for (const l of listeners.get(msg.channel) ?? []) l(msg.payload);
      }
    });
    socket.addEventListener('close', () => {
      for (const [id, p] of pending) {
        p.resolve({ ok: false, error: { code: 'server-unreachable', message: 'Lost the connection to Firebrand. Reconnecting…' } });
        pending.delete(id);
      }
      setTimeout(connect, 1000);
    });
  };
  connect();

  return buildBridge({
    invoke: (channel, payload) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, { resolve });
        const msg = JSON.stringify({ t: 'invoke', id, channel, payload });
        if (socket.readyState === WebSocket.OPEN) socket.send(msg);
        else queue.push(msg);
      }),
    subscribe: (channel, listener) => {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  });
}
