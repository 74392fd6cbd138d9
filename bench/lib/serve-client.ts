/**
 * A renderer-like client of serve mode without a browser: the same WebSocket at /ipc, the same invoke and event
 * frames the page's shim speaks (src/main/serve/serve-socket.ts), for benchmarks that time what reaches a
 * renderer and not how it paints.
 */
import { WebSocket } from 'ws';
import type { StreamPart } from '../../src/shared/parts';
import type { ServeProcess } from '../../test/e2e/helpers/serve-process';

export interface ServeClient {
  invoke<T = unknown>(channel: string, payload: unknown): Promise<T>;
  /** Every event frame, as it arrives. */
  onEvent(listener: (channel: string, payload: unknown) => void): () => void;
  close(): void;
}

export async function connectServe(s: Pick<ServeProcess, 'origin' | 'token'>): Promise<ServeClient> {
  const ws = new WebSocket(`${s.origin.replace(/^http/, 'ws')}/ipc?token=${s.token}`, { origin: s.origin });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  const listeners = new Set<(channel: string, payload: unknown) => void>();
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString()) as { t: string; id?: number; result?: unknown; channel?: string; payload?: unknown };
    if (msg.t === 'result' && msg.id !== undefined) {
      waiting.get(msg.id)?.(msg.result);
      waiting.delete(msg.id);
    } else if (msg.t === 'event') {
      for (const l of listeners) l(msg.channel ?? '', msg.payload);
    }
  });
  return {
    invoke: <T>(channel: string, payload: unknown) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        waiting.set(id, (result) => {
          const r = result as { ok: boolean; value?: T; error?: { message?: string } };
          if (r.ok) resolve(r.value as T);
          else reject(new Error(`${channel}: ${r.error?.message ?? JSON.stringify(r)}`));
        });
        ws.send(JSON.stringify({ t: 'invoke', id, channel, payload }));
      }),
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => ws.close(),
  };
}

export interface StreamTiming {
  /** When the first reasoning or answer text arrived (performance.now()). */
  firstAt: number;
  /** When the finish arrived. */
  endAt: number;
  /** Characters of text and reasoning received. */
  chars: number;
  finish: Extract<StreamPart, { type: 'finish' }>;
}

/** Collects the stream of the next assistant turn that starts after this call, until its finish. */
export function nextStream(client: ServeClient, timeoutMs = 600_000): Promise<StreamTiming> {
  return new Promise((resolve, reject) => {
    let firstAt = 0;
    let chars = 0;
    const timer = setTimeout(() => {
      off();
      reject(new Error('no finish arrived'));
    }, timeoutMs);
    const off = client.onEvent((channel, payload) => {
      if (channel !== 'chat:turn-parts') return;
      for (const p of (payload as { parts: StreamPart[] }).parts) {
        if (p.type === 'text-delta' || p.type === 'reasoning-delta') {
          if (chars === 0) firstAt = performance.now();
          chars += p.delta.length;
        } else if (p.type === 'finish') {
          clearTimeout(timer);
          off();
          resolve({ firstAt, endAt: performance.now(), chars, finish: p });
        }
      }
    });
  });
}
