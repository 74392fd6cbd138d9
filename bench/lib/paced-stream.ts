/**
 * Token streams written on a schedule (a rate in tokens per second), with the time each token was written, for
 * the benchmarks that measure from the write to the screen. Two carriers of the same schedule: an Ollama that
 * answers `/api/chat` (what Firebrand reads) and a WebSocket that a bare page reads (the floor).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { TITLE_ASK, TITLE_PROMPT } from '../../src/main/engine/title-lane';
import { TAGS_BODY } from '../../test/replay-server/ollama-wire';

/** How the title lane's two kinds of request read in a request body (JSON strings: no character to escape). */
const TITLE_QUESTIONS = [TITLE_ASK, TITLE_PROMPT];

/** Wall-clock milliseconds with sub-millisecond resolution; the page uses the same expression. */
export const clock = (): number => performance.timeOrigin + performance.now();

export interface StreamPlan {
  tokens: string[];
  rate: number;
  /** Silence before the first token, as a real server spends evaluating the prompt. */
  firstDelayMs?: number;
}

/**
 * Writes `plan.tokens` at `plan.rate`: every wake-up writes all tokens due by then in one write (as a socket
 * would carry them), so the schedule holds even where timers are coarse. Returns each token's write time.
 */
export async function pace(plan: StreamPlan, write: (from: number, to: number) => void, isClosed: () => boolean): Promise<number[]> {
  const times: number[] = [];
  if (plan.firstDelayMs) await new Promise((r) => setTimeout(r, plan.firstDelayMs));
  const start = clock();
  let next = 0;
  while (next < plan.tokens.length && !isClosed()) {
    const due = Math.min(plan.tokens.length, Math.floor(((clock() - start) * plan.rate) / 1000) + 1);
    if (due > next) {
      const t = clock();
      write(next, due);
      for (let i = next; i < due; i++) times.push(t);
      next = due;
    }
    const wait = start + (next * 1000) / plan.rate - clock();
    await new Promise((r) => setTimeout(r, Math.max(0, wait)));
  }
  return times;
}

export interface PacedServer {
  url: string;
  /** The stream the next request (or WebSocket `go`) gets. */
  setPlan(plan: StreamPlan): void;
  /** Resolves with each token's write time when the current stream has been written. */
  nextStream(): Promise<number[]>;
  close(): Promise<void>;
}

function ndjsonLine(content: string, done = false, count = 0): string {
  const base = { model: 'llama3.2:3b', created_at: '2026-11-30T08:00:00.000000000Z', message: { role: 'assistant', content } };
  const tail = done ? { done: true, done_reason: 'stop', prompt_eval_count: 26, eval_count: count } : { done: false };
  return `${JSON.stringify({ ...base, ...tail })}\n`;
}

/**
 * One server for both carriers: `/api/tags`, `/api/version` and a paced `/api/chat` for Firebrand; `/bare` (a
 * page appending the WebSocket's text to a `<pre>`) and its socket `/stream` for the floor.
 */
export async function startPacedServer(barePage: string): Promise<PacedServer> {
  let plan: StreamPlan = { tokens: [], rate: 100 };
  let waiting: ((times: number[]) => void)[] = [];
  const finished = (times: number[]) => {
    const w = waiting;
    waiting = [];
    for (const f of w) f(times);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/tags') return void res.writeHead(200, { 'content-type': 'application/json' }).end(TAGS_BODY);
    if (path === '/api/version') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"0.12.6"}');
    if (path !== '/api/chat') req.resume();
    if (path === '/bare') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(barePage);
    if (path !== '/api/chat' || req.method !== 'POST') return void res.writeHead(404).end();
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // The title lane's request (after a first answer: the chat and then its title question) gets a short title
      // at once, so it neither takes the measured stream nor competes with the next one.
      if (TITLE_QUESTIONS.some((q) => body.includes(q))) return void res.end(ndjsonLine('Bench chat') + ndjsonLine('', true, 2));
      res.flushHeaders();
      const current = plan;
      const write = (from: number, to: number) => res.write(current.tokens.slice(from, to).map((t) => ndjsonLine(t)).join(''));
      void pace(current, write, () => res.destroyed).then((times) => {
        res.end(ndjsonLine('', true, current.tokens.length));
        finished(times);
      });
    });
  });
  const wss = new WebSocketServer({ server, path: '/stream' });
  wss.on('connection', (socket) => {
    socket.on('message', () => {
      const current = plan;
      const write = (from: number, to: number) => socket.send(current.tokens.slice(from, to).join(''));
      void pace(current, write, () => socket.readyState !== socket.OPEN).then(finished);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    setPlan: (p) => {
      plan = p;
    },
    nextStream: () => new Promise((r) => waiting.push(r)),
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The floor page: connects, sends `go` when the bench asks, appends every message to one `<pre>` and follows its end. */
export const BARE_PAGE = `<!doctype html><meta charset="utf-8"><title>bare</title><pre id="out"></pre><script>
const out = document.getElementById('out');
const socket = new WebSocket('ws://' + location.host + '/stream');
window.__ready = new Promise((r) => socket.addEventListener('open', r));
// Keeps the end in view as it grows, as any chat does while an answer streams: once per frame, since reading
// scrollHeight per message would force a layout per token.
let follow = 0;
const toEnd = () => { follow = 0; document.scrollingElement.scrollTop = document.scrollingElement.scrollHeight; };
socket.addEventListener('message', (e) => { out.append(e.data); follow ||= requestAnimationFrame(toEnd); });
window.__go = () => socket.send('go');
</script>`;
