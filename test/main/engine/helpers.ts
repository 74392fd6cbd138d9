/**
 * Wire scripts for the engine's integration tests: per dialect, the recorded fixtures (test/fixtures/<dialect>/
 * and /work/shared/conformance) for tool calls, invalid calls and cuts, plus a plain text answer built from each
 * dialect's documented shapes. A `Script` answers each chat request with the next body in order.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { ServerKind } from '../../../src/shared/connections';
import type { JsonObject } from '../../../src/shared/json';
import { ToolRegistry } from '../../../src/main/tools/registry';
import type { Tool } from '../../../src/main/tools/types';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import type { ReplayRoute, ReplayServer } from '../../replay-server/replay-server';

const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url)), 'utf8');
export const conformance = (name: string) => readFileSync(join('/work/shared/conformance/llama-server', name), 'utf8');

export function openaiText(tokens: string[]): string {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const usage = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [], usage: { prompt_tokens: 40, completion_tokens: tokens.length } })}\n\n`;
  return chunk({ role: 'assistant', content: '' }, null) + tokens.map((t) => chunk({ content: t }, null)).join('') + chunk({}, 'stop') + usage + 'data: [DONE]\n\n';
}

/** The first events of a streamed answer, with no terminal frame: what has arrived when the user presses Stop. */
export function openaiPartial(content: string): string {
  const chunk = (delta: object) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
  return chunk({ role: 'assistant', content: '' }) + chunk({ content });
}

const anthropicEvent = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const anthropicStart = anthropicEvent('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, usage: { input_tokens: 40, output_tokens: 1 } } });

export function anthropicPartial(text: string): string {
  return anthropicStart + anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) + anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
}

export function anthropicText(tokens: string[]): string {
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return (
    ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, usage: { input_tokens: 40, output_tokens: 1 } } }) +
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
    tokens.map((t) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } })).join('') +
    ev('content_block_stop', { index: 0 }) +
    ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: tokens.length } }) +
    ev('message_stop', {})
  );
}

export interface DialectCase {
  kind: ServerKind;
  chatPath: string;
  /** Routes for capability probes (Ollama /api/show, llama-server /props and /apply-template). */
  probes: ReplayRoute[];
  toolCall: string;
  /** The argument the tool receives in `toolCall`, to assert it ran with it. */
  toolArg: string;
  invalidCall: string;
  /** What the invalid call's error result says. */
  invalidError: RegExp;
  text: (tokens: string[]) => string;
  cut: string;
  cutText: string;
  /** A stream that has sent `text` and no terminal frame yet (the server keeps it open). */
  partialText: (text: string) => string;
  /** A stream stopped inside a tool call's arguments, or undefined where the wire sends calls whole (Ollama). */
  partialToolCall?: string;
  serverError: { status: number; body: string; message: string };
  tools: ToolRegistry;
}

function weatherTool(name: string, properties: JsonObject, required: string[]): Tool {
  return {
    schema: { name, description: 'Get the current weather', parameters: { type: 'object', properties, required } },
    needsApproval: false,
    run: (args) => Promise.resolve({ content: `18 degrees, sunny (${JSON.stringify(args)})`, isError: false }),
  };
}

export const CASES: DialectCase[] = [
  {
    kind: 'ollama',
    chatPath: '/api/chat',
    probes: [{ method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools"],"template":"{{ .Prompt }}"}' }],
    toolCall: fixture('ollama/tool-call-stop.ndjson'),
    toolArg: 'Paris, FR',
    invalidCall: fixture('ollama/invalid-tool-args.ndjson'),
    invalidError: /Arguments for get_current_weather are invalid/,
    text: (tokens) => ollamaChatStream(tokens, 'm'),
    cut: fixture('ollama/cut.ndjson'),
    cutText: 'The answer is',
    partialText: (text) => ollamaChatStream([text], 'm', { done: false }),
    serverError: { status: 500, body: '{"error":"llama runner process has terminated: exit status 2"}', message: 'llama runner process has terminated' },
    tools: new ToolRegistry([
      weatherTool('get_current_weather', { location: { type: 'string' }, format: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, ['location', 'format']),
    ]),
  },
  {
    kind: 'llama-server',
    chatPath: '/v1/chat/completions',
    probes: [
      { path: '/props', body: conformance('props-deepseek.json') },
      { method: 'POST', path: '/apply-template', body: conformance('apply-template-deepseek.json') },
    ],
    toolCall: fixture('openai/fragmented-args-empty-first.sse'),
    toolArg: 'Paris',
    invalidCall: fixture('openai/invalid-json-args.sse'),
    invalidError: /Arguments for get_weather are not valid JSON/,
    text: openaiText,
    cut: fixture('openai/no-terminal-frame.sse'),
    cutText: 'The weather in Paris is',
    partialText: openaiPartial,
    partialToolCall: fixture('openai/fragmented-args-empty-first.sse').split('\n\n').slice(0, 4).join('\n\n') + '\n\n',
    serverError: { status: 400, body: conformance('context-overflow-nostream-deepseek.json'), message: 'context' },
    tools: new ToolRegistry([weatherTool('get_weather', { city: { type: 'string' } }, ['city'])]),
  },
  {
    kind: 'anthropic',
    chatPath: '/v1/messages',
    probes: [],
    toolCall: fixture('anthropic/tool-use-fragments.sse'),
    toolArg: 'San Francisco, CA',
    invalidCall: fixture('anthropic/tool-use-schema-invalid.sse'),
    invalidError: /Arguments for get_weather are invalid/,
    text: anthropicText,
    cut: fixture('anthropic/cut.sse'),
    cutText: 'The answer is',
    partialText: anthropicPartial,
    partialToolCall: fixture('anthropic/max-tokens-in-tool-use.sse').split('\n\n').slice(0, 4).join('\n\n') + '\n\n',
    serverError: { status: 529, body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', message: 'Overloaded' },
    tools: new ToolRegistry([
      weatherTool('get_weather', { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, ['location']),
    ]),
  },
];

/**
 * Answers the n-th chat request with `bodies[n]` and, as each request arrives and before any byte of the answer,
 * looks in the database (a separate read-only connection: it sees only committed rows) for the step row naming
 * the sha256 of the exact bytes received.
 */
export function script(replay: ReplayServer, dbPath: string, base: ReplayRoute[], chatPath: string, bodies: Partial<ReplayRoute>[]) {
  const committed: boolean[] = [];
  let n = 0;
  const routeFor = (i: number): ReplayRoute[] => {
    const next = bodies[Math.min(i, bodies.length - 1)] ?? {};
    return [...base, { method: 'POST', path: chatPath, body: '', chunk: 'lines', ...next }];
  };
  replay.setRoutes(routeFor(0));
  replay.setOnRequest((req) => {
    if (req.path !== chatPath) return;
    const digest = createHash('sha256').update(Buffer.from(req.body, 'utf8')).digest('hex');
    const db = new Database(dbPath, { readonly: true });
    try {
      committed.push((db.prepare('SELECT count(*) AS n FROM steps WHERE request_digest = ?').get(digest) as { n: number }).n === 1);
    } finally {
      db.close();
    }
    replay.setRoutes(routeFor(n++));
  });
  return { committed, count: () => n };
}
