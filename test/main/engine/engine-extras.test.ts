import diagnostics from 'node:diagnostics_channel';
import { createServer } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { turnText, type AttachmentBlock, type Turn } from '../../../src/shared/turn';
import { IMAGE_TOKEN_BUDGET } from '../../../src/shared/context-estimate';
import { imagesNotSentOf } from '../../../src/shared/images-not-sent';
import { SafeStorageSecretStore } from '../../../src/main/secrets/secret-store';
import { createServices, type Services } from '../../../src/main/services';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';
import { anthropicText, CASES, conformance, openaiText, script } from './helpers';

let dir: string;
let services: Services | undefined;
let replay: ReplayServer | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-engine-x-'));
});
afterEach(async () => {
  services?.close();
  services = undefined;
  await replay?.close();
  replay = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function settle(s: Services, conversationId: string): Promise<Turn[]> {
  await expect.poll(() => s.chat.activeCount).toBe(0);
  return (await s.handlers['conversations:open']({ conversationId })).turns;
}

/** Services against a replay server with `routes` (both closed after the test), and cat.png (a 1×1 PNG) attached. */
async function withImage(routes: ReplayRoute[]): Promise<{ image: AttachmentBlock; services: Services; replay: ReplayServer }> {
  const r = (replay = await startReplayServer(routes));
  const s = (services = createServices({ dataDir: dir, ollamaUrl: r.url, log: () => {}, chat: { titles: false } }));
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const image = await s.handlers['attachments:add']({ name: 'cat.png', mime: 'image/png', dataBase64: png.toString('base64') });
  return { image, services: s, replay: r };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Everything under `root`, as bytes, for the secret grep. */
function allFiles(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const p = join(root, name);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

describe('the engine around the loop', () => {
  it('retries a connect failure once, before any byte was sent', async () => {
    const port = await freePort();
    services = createServices({ dataDir: dir, ollamaUrl: `http://127.0.0.1:${port}`, log: () => {}, chat: { titles: false, retryDelayMs: 400 } });
    // The server comes up the moment the chat request's first connect is refused (undici reports each request's
    // failure on this diagnostics channel), so the first try always fails and only the retry, after the pause,
    // can reach it: no race between the pause and a server started "soon enough".
    let up: Promise<ReplayServer> | undefined;
    const onRequestError = (message: unknown) => {
      const { request } = message as { request: { path?: string } };
      if (up || !request.path?.startsWith('/api/chat')) return;
      up = startReplayServer([{ method: 'POST', path: '/api/chat', body: ollamaChatStream(['Back.']) }], port);
    };
    diagnostics.subscribe('undici:request:error', onRequestError);
    try {
      const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Hi', model: 'm' });
      await expect.poll(() => up).toBeDefined();
      const server = await up;
      if (!server) throw new Error('the replay server never started');
      replay = server;
      const turns = await settle(services, sent.conversationId);
      expect(turns.at(-1)).toMatchObject({ status: 'done' });
      expect(turnText(turns.at(-1) as Turn)).toBe('Back.');
      expect(server.requests.filter((r) => r.path === '/api/chat')).toHaveLength(1);
    } finally {
      diagnostics.unsubscribe('undici:request:error', onRequestError);
    }
  });

  it('keeps an API key out of the database, the data folder and the logs; only the leg sends it', async () => {
    const SENTINEL = 'sk-ant-SENTINEL-7f3a9c';
    replay = await startReplayServer();
    const logs: string[] = [];
    // A stand-in for Electron safeStorage: reversible, and the ciphertext does not contain the plain key.
    const crypto = {
      isEncryptionAvailable: () => true,
      encryptString: (s: string) => Buffer.from(Buffer.from([...s].reverse().join(''), 'utf8').map((b) => b ^ 0x5a)),
      decryptString: (b: Buffer) => [...Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8')].reverse().join(''),
    };
    const c = CASES.find((x) => x.kind === 'anthropic');
    if (!c) throw new Error('no anthropic case');
    services = createServices({
      dataDir: dir,
      log: (m) => logs.push(m),
      secrets: new SafeStorageSecretStore(join(dir, 'secrets.safe.json'), crypto),
      chat: { tools: c.tools, titles: true },
    });
    const conn = await services.handlers['connections:save']({ kind: 'anthropic', label: 'Claude', baseUrl: replay.url, apiKey: SENTINEL });
    expect(conn).toMatchObject({ hasApiKey: true });
    expect(JSON.stringify(await services.handlers['connections:list']({}))).not.toContain(SENTINEL);
    script(replay, join(dir, 'firebrand.db'), [{ path: '/v1/models', body: '{"data":[{"id":"claude"}]}' }], '/v1/messages', [
      { body: c.toolCall },
      { body: anthropicText(['Sunny.']) },
      { body: anthropicText(['Weather in San Francisco']) },
    ]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'claude', connectionId: conn.id });
    const turns = await settle(services, sent.conversationId);
    expect(turnText(turns.at(-1) as Turn)).toBe('Sunny.');
    expect(await services.handlers['connections:test']({ id: conn.id })).toMatchObject({ ok: true, modelCount: 1 });
    // The title lane ran too (a third request), and named the conversation.
    await expect.poll(async () => (await services!.handlers['conversations:list']({}))[0]?.title).toBe('Weather in San Francisco');

    const headers = replay.requests.map((r) => r.headers);
    expect(headers.every((h) => h['x-api-key'] === SENTINEL && h['anthropic-version'] === '2023-06-01')).toBe(true);
    for (const r of replay.requests) expect(r.body).not.toContain(SENTINEL);
    services.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const file of allFiles(dir)) expect(readFileSync(file).includes(SENTINEL), file).toBe(false);
    expect(logs.join('\n')).not.toContain(SENTINEL);
    const steps = services.db.prepare('SELECT * FROM steps').all();
    expect(steps.length).toBe(3);
    expect(JSON.stringify(steps)).not.toContain(SENTINEL);
  });

  it('gives the same Turns through Ollama and through an OpenAI-compatible llama-server', async () => {
    replay = await startReplayServer();
    const run = async (kind: 'ollama' | 'llama-server'): Promise<unknown[]> => {
      const c = CASES.find((x) => x.kind === kind);
      if (!c || !replay) throw new Error('missing case');
      const local = createServices({ dataDir: join(dir, kind), ollamaUrl: replay.url, log: () => {}, chat: { tools: c.tools, titles: false } });
      try {
        const connectionId = kind === 'ollama' ? undefined : (await local.handlers['connections:save']({ kind, label: kind, baseUrl: replay.url })).id;
        const answer = kind === 'ollama' ? ollamaChatStream(['The sky ', 'is blue.'], 'm') : openaiText(['The sky ', 'is blue.']);
        script(replay, join(dir, kind, 'firebrand.db'), c.probes, c.chatPath, [{ body: answer }, { body: answer }]);
        const first = await local.handlers['chat:send']({ conversationId: null, text: 'Why?', model: 'm', ...(connectionId ? { connectionId } : {}) });
        await settle(local, first.conversationId);
        const second = await local.handlers['chat:send']({ conversationId: first.conversationId, text: 'Sure?', model: 'm', ...(connectionId ? { connectionId } : {}) });
        const turns = await settle(local, second.conversationId);
        // Ids, times and server-reported usage differ by nature; everything the conversation IS must not.
        return turns.map((t) => ({ role: t.role, blocks: t.blocks, status: t.status, stop: t.stop, source: t.source, meta: withoutTiming(t.meta) }));
      } finally {
        replay.setOnRequest(undefined);
        local.close();
      }
    };
    const viaOllama = await run('ollama');
    const viaOpenai = await run('llama-server');
    expect(viaOpenai).toEqual(viaOllama);
    expect(viaOllama).toHaveLength(4);
  });

  it('refuses an image for a model the server says cannot see, sending nothing', async () => {
    const { image, services, replay } = await withImage([{ method: 'POST', path: '/api/show', body: '{"capabilities":["completion"]}' }]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'What is this?', model: 'llama3.2:3b', attachments: [image] });
    const turns = await settle(services, sent.conversationId);
    expect(turns.at(-1)?.status).toBe('error');
    expect(turns.at(-1)?.error).toContain('cannot read images');
    expect(replay.requests.filter((r) => r.path === '/api/chat')).toEqual([]);
  });

  // Files audit #6: a chat that once had an image could not go on with a model that cannot see: every send was
  // refused for an image in an earlier message, with advice to remove it that no control follows, and the meter
  // read 0.
  it('goes on after an image with a model that cannot see: the earlier image goes as a note, counted as such', async () => {
    const { image, services, replay } = await withImage([
      { method: 'POST', path: '/api/show', body: '{"capabilities":["completion"]}' },
      { method: 'POST', path: '/api/chat', body: ollamaChatStream(['A joke, then.']), chunk: 'lines' },
    ]);
    const first = await services.handlers['chat:send']({ conversationId: null, text: 'What is this?', model: 'llama3.2:3b', attachments: [image] });
    expect((await settle(services, first.conversationId)).at(-1)?.error).toContain('Pick a model that can see and press Retry, or ask again without cat.png.');
    const second = await services.handlers['chat:send']({ conversationId: first.conversationId, text: 'Tell me a joke instead', model: 'llama3.2:3b' });
    const turns = await settle(services, second.conversationId);
    expect(turns.at(-1)).toMatchObject({ status: 'done' });
    expect(turnText(turns.at(-1) as Turn)).toBe('A joke, then.');
    // The answer records that it went without the image: its mark says so from this, whatever model list is read
    // later (it looked the model up by name in the connection in use then, and a switch could change or lose it).
    expect(imagesNotSentOf(turns.at(-1) as Turn)).toBe(1);
    const sent = replay.requests.filter((r) => r.path === '/api/chat').map((r) => JSON.parse(r.body) as { messages: { role: string; content: string; images?: string[] }[] });
    expect(sent).toHaveLength(1);
    // The refused answer is left out, so the two messages go as one (turns audit #5: roles must alternate).
    expect(sent[0]?.messages).toEqual([
      { role: 'user', content: 'What is this?\n\n[image cat.png: not sent, this model cannot read images]\n\nTell me a joke instead' },
    ]);
    // The meter measures the chat as it is sent now: the note, not an image's budget, and not 0.
    const measured = await services.handlers['context:measure']({ conversationId: first.conversationId, model: 'llama3.2:3b' });
    expect(measured.tokens).toBeGreaterThan(0);
    expect(measured.tokens).toBeLessThan(IMAGE_TOKEN_BUDGET);
  });

  it('records with an answer by a model that can see that none of the chat\'s images went without', async () => {
    const { image, services } = await withImage([
      { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","vision"]}' },
      { method: 'POST', path: '/api/chat', body: ollamaChatStream(['A cat.']), chunk: 'lines' },
    ]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'What is this?', model: 'llava:7b', attachments: [image] });
    const turns = await settle(services, sent.conversationId);
    expect(turns.at(-1)).toMatchObject({ status: 'done' });
    expect(imagesNotSentOf(turns.at(-1) as Turn)).toBe(0);
  });

  /** A llama-server whose rendered prompt ends with `prefill` (what /apply-template answers), behind the replay server. */
  async function llamaServer(props: string, prefill: string, stream: string) {
    replay = await startReplayServer();
    const rendered = JSON.parse(conformance('apply-template-deepseek.json')) as { prompt: string };
    const probes = [
      { path: '/props', body: conformance(props) },
      { method: 'POST', path: '/apply-template', body: JSON.stringify({ prompt: `${rendered.prompt}${prefill}` }) },
    ];
    services = createServices({ dataDir: dir, log: () => {}, chat: { titles: false } });
    const { id } = await services.handlers['connections:save']({ kind: 'llama-server', label: 'llama', baseUrl: replay.url });
    script(replay, join(dir, 'firebrand.db'), probes, '/v1/chat/completions', [{ body: stream }]);
    return id;
  }
  const chatBody = () => JSON.parse(replay?.requests.find((r) => r.path === '/v1/chat/completions')?.body ?? '{}') as Record<string, unknown>;

  it('think mode on with a template that opens <think>: the server separates the reasoning, and the answer stays the answer', async () => {
    // Paired as a real server answers it: the request asks `reasoning_format: deepseek`, so llama-server moves the
    // reasoning into `reasoning_content` (conformance b-reasoning-stream-deepseek, recorded with that format).
    const id = await llamaServer('props-deepseek.json', '<think>\n', conformance('b-reasoning-stream-deepseek.sse'));
    const sent = await services!.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', connectionId: id, think: 'on' });
    const turns = await settle(services!, sent.conversationId);
    const answer = turns.at(-1) as Turn;
    expect(chatBody()).toMatchObject({ chat_template_kwargs: { enable_thinking: true }, reasoning_format: 'deepseek' });
    expect(turnText(answer)).toBe('It is sunny.');
    expect(answer.blocks.filter((b) => b.type === 'reasoning').map((b) => b.text)).toEqual(['The user asks about weather.\n']);
    // n_ctx from /props is the window the step was recorded with.
    expect(services!.db.prepare('SELECT context_window FROM steps').get()).toEqual({ context_window: 4096 });
  });

  it('a passthrough server (--reasoning-format none) whose template opens <think>: the splitter starts inside it', async () => {
    // No think mode asked, so no reasoning_format: the server's own `none` leaves the reasoning inline, and the
    // rendered prompt ended inside `<think>`, so the first bytes are reasoning with no open tag.
    const id = await llamaServer('props-none.json', '<think>\n', readFileSync('test/fixtures/openai/think-open-template.sse', 'utf8'));
    const sent = await services!.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', connectionId: id });
    const turns = await settle(services!, sent.conversationId);
    const answer = turns.at(-1) as Turn;
    expect(chatBody()).not.toHaveProperty('reasoning_format');
    expect(answer.blocks.filter((b) => b.type === 'reasoning').map((b) => b.text)).toEqual(['The user wants the weather.']);
    expect(turnText(answer)).toBe('It is sunny in Paris.');
  });

  it('a prompt pre-filled with <reasoning> is not think-open: the splitter could never close it, and the answer is kept', async () => {
    const stream = openaiText(['The user wants the weather.', '</reasoning>\n\n', 'It is sunny in Paris.']);
    const id = await llamaServer('props-none.json', '<reasoning>\n', stream);
    const sent = await services!.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', connectionId: id });
    const turns = await settle(services!, sent.conversationId);
    const answer = turns.at(-1) as Turn;
    expect(answer.status).toBe('done');
    expect(turnText(answer)).toContain('It is sunny in Paris.');
  });
});

/** Wall-clock timing differs from run to run; everything else in meta must match. */
function withoutTiming(meta: Record<string, unknown>): Record<string, unknown> {
  const { timing: _timing, ...rest } = meta;
  return rest;
}
