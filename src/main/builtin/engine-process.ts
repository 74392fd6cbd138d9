/**
 * The built-in engine process's entry: runs node-llama-cpp away from main, so a native crash or an out-of-memory
 * ends this process and one answer, never the app (DESIGN.md §9). Two carriers, one protocol
 * (./protocol.ts): an Electron utilityProcess (`process.parentPort`) or a Node `child_process.fork` (`process.send`).
 * It exits when its parent goes away.
 */
import { EngineRuntime } from './engine-runtime';
import { EventCoalescer } from './event-coalescer';
import type { EngineMessage, EngineRequest } from './protocol';

interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(message: EngineMessage): void {
  if (parentPort) parentPort.postMessage(message);
  else process.send?.(message);
}

const runtime = new EngineRuntime((m) => process.stderr.write(`[engine] ${m}\n`));
const running = new Map<number, AbortController>();

async function handle(req: EngineRequest): Promise<void> {
  const reply = (value: Extract<EngineMessage, { ok: true }>['value']) => send({ type: 'result', id: req.id, ok: true, value });
  try {
    switch (req.type) {
      case 'generate': {
        const controller = new AbortController();
        running.set(req.id, controller);
        // Text goes to main in time-coalesced messages, not one per token (./event-coalescer.ts says why).
        const out = new EventCoalescer((event) => send({ type: 'stream', id: req.id, event }));
        try {
          await runtime.generate(req, out, controller.signal);
        } finally {
          out.flush();
          running.delete(req.id);
        }
        return reply({ ok: true });
      }
      case 'abort':
        running.get(req.id)?.abort();
        return;
      case 'count':
        return reply({ tokens: await runtime.count(req.path, req.text, req.addBos) });
      case 'load':
        await runtime.exclusive(() => runtime.load(req.model));
        return reply(await runtime.status());
      case 'unload':
        await runtime.exclusive(() => runtime.unload(req.path));
        return reply(await runtime.status());
      case 'status':
        return reply(await runtime.status());
    }
  } catch (err) {
    send({ type: 'result', id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
}

function onMessage(data: unknown): void {
  if (!data || typeof data !== 'object' || typeof (data as { type?: unknown }).type !== 'string') return;
  void handle(data as EngineRequest);
}

if (parentPort) parentPort.on('message', (e) => onMessage(e.data));
else {
  process.on('message', onMessage);
  // The parent died or closed the channel: nothing can reach us any more.
  process.on('disconnect', () => process.exit(0));
}
