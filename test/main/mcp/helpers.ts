/**
 * MCP servers for the tests (issue 19): the real reference servers from npm (`server-everything`,
 * `server-filesystem`, run with `node <bin>`, offline), the scripted misbehaving one, and a stand-in model that
 * asks for tool calls: an Ollama replay whose n-th chat request gets the n-th planned answer.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import type { EventChannel } from '../../../src/shared/ipc';
import type { McpServerInfo, McpServerInput } from '../../../src/shared/mcp';
import type { Turn } from '../../../src/shared/turn';
import { createServices, type Services, type ServicesOptions } from '../../../src/main/services';
import { procStatFields, STAT } from '../../../src/main/workers/proc-stat';
import { ollamaChatStream, TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const EVERYTHING_BIN = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_BIN = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const SCRIPTED_BIN = fileURLToPath(new URL('./servers/scripted-server.mjs', import.meta.url));
export const SDK_SERVER_BIN = fileURLToPath(new URL('./servers/sdk-server.mjs', import.meta.url));

export const MODEL = 'llama3.2:3b';

export function everything(name = 'everything', extra: Partial<McpServerInput> = {}): McpServerInput {
  return { name, transport: 'stdio', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], ...extra };
}

export function filesystem(root: string, name = 'files'): McpServerInput {
  return { name, transport: 'stdio', command: process.execPath, args: [FILESYSTEM_BIN, root] };
}

/** The scripted server in `mode`, logging its pid and the notifications it gets to `log`. */
export function scripted(mode: string, log: string, extra: Partial<McpServerInput> = {}): McpServerInput {
  return { name: mode, transport: 'stdio', command: process.execPath, args: [SCRIPTED_BIN, mode], env: [{ name: 'SCRIPTED_LOG', value: log }], ...extra };
}

/** The server built on the SDK's low-level Server (test/main/mcp/servers/sdk-server.mjs) in `mode`. */
export function sdkServer(mode: 'tools' | 'list-error', name = 'atlas'): McpServerInput {
  return { name, transport: 'stdio', command: process.execPath, args: [SDK_SERVER_BIN, mode] };
}

export function logLines(log: string): string[] {
  try {
    return readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
  } catch {
    return [];
  }
}

/** Whether a process runs (a zombie, waiting for a parent that never reaps it, does not count). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // Unreadable (not Linux): the signal's answer stands.
  return procStatFields(`/proc/${pid}/stat`)?.[STAT.state] !== 'Z';
}

/** One Ollama `/api/chat` answer that calls `name` with `args` (Ollama gives the whole call in one line). */
export function callAnswer(name: string, args: Record<string, unknown>): string {
  const created = '2026-11-30T08:00:00Z';
  const call = { model: MODEL, created_at: created, message: { role: 'assistant', content: '', tool_calls: [{ function: { name, arguments: args } }] }, done: false };
  const done = { model: MODEL, created_at: created, message: { role: 'assistant', content: '' }, done_reason: 'stop', done: true };
  return `${JSON.stringify(call)}\n${JSON.stringify(done)}\n`;
}

export const textAnswer = (text: string) => ollamaChatStream([text], MODEL);

export interface ChatBody {
  messages: { role: string; content: string; tool_name?: string; images?: string[] }[];
  tools?: { function: { name: string; description: string; parameters: Record<string, unknown> } }[];
}

export interface Stage {
  replay: ReplayServer;
  services: Services;
  dir: string;
  events: { channel: EventChannel; payload: unknown }[];
  /** Planned answers, taken one per chat request; when they run out, a plain answer. */
  plan: string[];
  bodies(): ChatBody[];
  close(): Promise<void>;
}

/** Firebrand's services against a stand-in Ollama whose model can use tools (and see, with `vision`). */
export async function stage(options: { vision?: boolean; services?: Partial<ServicesOptions> } = {}): Promise<Stage> {
  const capabilities = ['completion', 'tools', ...(options.vision ? ['vision'] : [])];
  const base: ReplayRoute[] = [
    { path: '/api/tags', body: TAGS_BODY },
    { path: '/api/version', body: '{"version":"0.12.6"}' },
    { method: 'POST', path: '/api/show', body: JSON.stringify({ capabilities }) },
  ];
  const chat = (body: string): ReplayRoute => ({ method: 'POST', path: '/api/chat', body, chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' } });
  const replay = await startReplayServer([...base, chat(textAnswer('Done.'))]);
  const plan: string[] = [];
  replay.setOnRequest((req) => {
    if (req.path === '/api/chat') replay.setRoutes([...base, chat(plan.shift() ?? textAnswer('Done.'))]);
  });
  const dir = mkdtempSync(join(tmpdir(), 'firebrand-mcp-'));
  const services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, chat: { titles: false }, ...options.services });
  const events: Stage['events'] = [];
  services.hub.connect((channel, payload) => events.push({ channel, payload }));
  return {
    replay,
    services,
    dir,
    events,
    plan,
    bodies: () => replay.requests.filter((r) => r.path === '/api/chat').map((r) => JSON.parse(r.body) as ChatBody),
    close: async () => {
      services.close();
      await services.closed;
      await replay.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Adds a server and waits until it is ready (or failed, when `expectState` says so). */
export async function addServer(s: Services, input: McpServerInput, expectState: McpServerInfo['state'] = 'ready'): Promise<McpServerInfo> {
  const saved = await s.handlers['mcp:save'](input);
  await expect.poll(async () => (await server(s, saved.id))?.state).toBe(expectState);
  return (await server(s, saved.id)) as McpServerInfo;
}

export async function server(s: Services, id: string): Promise<McpServerInfo | undefined> {
  return (await s.handlers['mcp:list']({})).find((x) => x.id === id);
}

/** The pending approval card of a conversation, from the events. */
export function pendingCard(st: Stage, conversationId: string): Turn | undefined {
  const cards = st.events.map((e) => (e.payload as { turn?: Turn }).turn).filter((t): t is Turn => t?.source === 'tool-approval' && t.conversationId === conversationId);
  const last = cards.at(-1);
  return last?.meta['state'] === 'pending' ? last : undefined;
}

export async function decide(st: Stage, card: Turn, decision: 'allow-once' | 'allow-conversation' | 'allow-always' | 'deny'): Promise<void> {
  const res = await st.services.handlers['chat:approve-tool']({ conversationId: card.conversationId, turnId: String(card.meta['turnId']), toolCallId: String(card.meta['toolCallId']), decision });
  expect(res.applied).toBe(true);
}

export async function settled(st: Stage, conversationId: string): Promise<Turn[]> {
  await expect.poll(() => st.services.chat.activeCount).toBe(0);
  return (await st.services.handlers['conversations:open']({ conversationId })).turns;
}

/**
 * A server that fails when it starts, whose tool `wait` was listed on a better day (so it is still offered): the
 * model calls it, the user allows it once, and the model then says `after`. Returns the tool's result and the turns.
 */
export async function callUnstartable(st: Stage, input: McpServerInput, after: string): Promise<{ result: unknown; turns: Turn[] }> {
  const s = st.services;
  const info = await addServer(s, input, 'failed');
  s.mcp.store.update(info.id, { tools: [{ name: 'wait', description: 'Waits.', inputSchema: { type: 'object' } }] });
  st.plan.push(callAnswer('wait', {}), textAnswer(after));
  const sent = await s.handlers['chat:send']({ conversationId: null, text: 'wait', model: MODEL });
  await expect.poll(() => pendingCard(st, sent.conversationId)).toBeDefined();
  await decide(st, pendingCard(st, sent.conversationId) as Turn, 'allow-once');
  const turns = await settled(st, sent.conversationId);
  return { result: turns.find((t) => t.role === 'tool')?.blocks[0], turns };
}

/**
 * A test file's tidy-up after each test: the stage `take` hands over (the file's current one, which it forgets) is
 * closed, and the scratch folder is removed. `scratchDir()` is that folder (made on first use: servers' logs, a
 * filesystem server's root); `logFile()` names a fresh log file in it.
 */
export function tidyEachTest(take: () => Stage | undefined): { scratchDir: () => string; logFile: () => string } {
  let scratch: string | undefined;
  afterEach(async () => {
    await take()?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });
  const scratchDir = () => (scratch ??= mkdtempSync(join(tmpdir(), 'firebrand-mcp-scratch-')));
  return { scratchDir, logFile: () => join(scratchDir(), `log-${Math.random().toString(36).slice(2)}.txt`) };
}
