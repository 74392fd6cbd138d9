/**
 * The meter counts the draft where llama-server counts (context:measure with `draft`) once typing pauses. On a long
 * chat each pause re-sent the whole chat to the server twice (with the draft and without it). Here a 500-turn chat:
 * the count must stay the server's own count of the request the draft would make, and the pauses after the first
 * must not send the chat again. Prints the timings and the requests and bytes each pause sent (the report's numbers).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/main/db/conversation-store';
import type { Turn } from '../../src/shared/turn';
import { SCRIPTS } from '../support/scripted-gguf/scripts';
import { send, settle, startApp, type RealApp } from './support/app';
import { ServerPool } from './support/pool';

const pool = new ServerPool();
const apps: RealApp[] = [];
const proxies: Server[] = [];
afterAll(async () => {
  for (const a of apps) a.close();
  for (const p of proxies) p.close();
  await pool.stopAll();
});

/** A pass-through in front of llama-server that counts what reaches it. */
async function countingProxy(target: string): Promise<{ url: string; seen: { path: string; bytes: number }[] }> {
  const seen: { path: string; bytes: number }[] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ path: req.url ?? '', bytes: body.length });
      const out = httpRequest({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  proxies.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function longChat(a: RealApp, turns: number): string {
  const store = new ConversationStore(a.services.db);
  const id = 'long-chat';
  store.createConversation(id, 'Long chat', a.model, 1);
  let parent: string | null = null;
  for (let i = 0; i < turns; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const text = role === 'user' ? `Question ${i}: how does part ${i} of the plan work, and what comes next?` : `Answer ${i}: part ${i} reads the input, checks it, and hands it on to part ${i + 1}.`;
    const turn: Turn = { id: `t${i}`, conversationId: id, parentId: parent, role, blocks: [{ type: 'text', text }], meta: {}, status: 'done', createdAt: i + 2, ...(role === 'assistant' ? { model: a.model } : {}) };
    store.appendTurn(turn, i + 2);
    parent = turn.id;
  }
  return id;
}

describe('counting the draft on a 500-turn chat', () => {
  it('gives the server’s own count of the request, and the pauses after the first do not send the chat again', async () => {
    const server = await pool.get(SCRIPTS.plain, { ctx: 4096 });
    const proxy = await countingProxy(server.url);
    const a = await startApp(proxy.url);
    apps.push(a);
    const conversationId = longChat(a, 500);
    const measure = a.services.handlers['context:measure'];
    const ask = { conversationId, model: a.model, connectionId: a.connectionId };
    // The meter's own measure (no draft), as the composer asks when the chat opens.
    await measure(ask);
    // Typing pauses three times on each message, then it is sent: the server refuses it (500 turns are over the
    // window) and its card gives the server's own count of the request, which the meter's number must equal.
    const messages = ['Hello, how does part 3 work?', '山'.repeat(40), 'def f(x):\n    return {"a": [x, x + 1]}\n  '];
    const rows: string[] = [];
    for (const message of messages) {
      let last: { tokens: number; draft?: { text: string; tokens: number } } | undefined;
      for (const draft of [message.slice(0, 3), message.slice(0, 10), message]) {
        const from = proxy.seen.length;
        const started = performance.now();
        last = await measure({ ...ask, draft });
        const ms = performance.now() - started;
        const sent = proxy.seen.slice(from);
        rows.push(`${JSON.stringify(draft)}: ${ms.toFixed(0)} ms, ${sent.length} requests, ${sent.reduce((n, s) => n + s.bytes, 0)} bytes`);
        expect(last.draft?.text).toBe(draft);
        // The chat was rendered at the first pause (with a stand-in in the draft's place): the pauses after it send
        // the server the draft's part of the prompt alone, not the chat.
        if (draft !== message.slice(0, 3)) expect(sent.filter((s) => s.path === '/apply-template')).toHaveLength(0);
      }
      send(a, message, conversationId);
      const card = (await settle(a, conversationId)).at(-1);
      expect(card).toMatchObject({ role: 'system', source: 'context-refused', meta: { counted: 'server' } });
      expect(last!.tokens + last!.draft!.tokens).toBe(card!.meta['estimate']);
    }
    console.log(`draft counts on a 500-turn chat:\n${rows.join('\n')}`);
  }, 120_000);
});

