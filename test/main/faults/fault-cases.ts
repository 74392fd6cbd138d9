/**
 * The fault table for faults.test.ts: what a broken or hostile server does, per dialect (Ollama NDJSON and
 * llama-server's OpenAI SSE), and the turn status and message the user must see for it (DESIGN.md §2-3:
 * every failure ends as a turn status with a message; what arrived is kept). Error bodies come from
 * test/fixtures/faults (see its README for sources) and /work/shared/conformance.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TurnStatus } from '../../../src/shared/turn';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import type { ReplayRoute } from '../../replay-server/replay-server';
import { conformance, openaiText } from '../engine/helpers';

export type FaultDialect = 'ollama' | 'llama-server';

const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url)), 'utf8');

/** The wire pieces a case needs, per dialect. */
export interface Wire {
  /** A complete answer. */
  text(tokens: string[]): string;
  /** The same answer without its terminal frame (the server would go on, or died). */
  partial(tokens: string[]): string;
  toolCall: string;
  /** Where to cut `toolCall` so a call is half-sent. */
  toolCallCut: number;
  garbage(tokens: string[]): string;
  /** One event/line holding `content` whole. */
  oneLine(content: string): string;
}

const byteIndex = (text: string, needle: string) => Buffer.from(text, 'utf8').indexOf(Buffer.from(needle, 'utf8'));

const ollamaToolCall = fixture('ollama/tool-call-stop.ndjson');
const openaiToolCall = fixture('openai/fragmented-args-empty-first.sse');
const openaiChunk = (delta: object) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;

export const WIRES: Record<FaultDialect, Wire> = {
  ollama: {
    text: (tokens) => ollamaChatStream(tokens, 'm'),
    partial: (tokens) => ollamaChatStream(tokens, 'm', { done: false }),
    toolCall: ollamaToolCall,
    // Ollama sends a whole call in one line: cutting inside it leaves a line that cannot parse.
    toolCallCut: byteIndex(ollamaToolCall, '"arguments"') + 5,
    garbage: (tokens) => {
      const [head = '', ...tail] = ollamaChatStream(tokens, 'm').split('\n');
      return [head, 'not json at all', '\u0000\u0001\u0002 binary', '{"half":', '[1,2,3]', '"a string"', ...tail].join('\n');
    },
    oneLine: (content) => ollamaChatStream([content], 'm'),
  },
  'llama-server': {
    text: openaiText,
    partial: (tokens) => openaiChunk({ role: 'assistant', content: '' }) + tokens.map((t) => openaiChunk({ content: t })).join(''),
    toolCall: openaiToolCall,
    // After `{"city": "Par`: the arguments block is open and never closed.
    toolCallCut: byteIndex(openaiToolCall, '"is\\"}"'),
    garbage: (tokens) => {
      const [head = '', ...tail] = openaiText(tokens).split('\n\n');
      return [head, 'data: not json at all', 'garbage without a field name', ': keep-alive comment', 'data: {"half":', 'event: ping\ndata: 42', ...tail].join('\n\n');
    },
    oneLine: (content) => openaiText([content]),
  },
};

export interface FaultCase {
  name: string;
  /** The route answering the fault's chat request; `refused` = nothing listens on the port. */
  route(wire: Wire, dialect: FaultDialect): Partial<ReplayRoute> | 'refused';
  expect: Partial<Record<FaultDialect, Expected>>;
  /**
   * The server stops sending for good: only these cases run with a short stall limit. Every other case keeps the
   * app's own limit, so a busy machine pausing the client between two chunks is never mistaken for a stall.
   */
  stalls?: true;
}

export interface Expected {
  status: TurnStatus;
  message?: RegExp;
  /** The answer text kept (exact), or a predicate. */
  text?: string | ((text: string) => boolean);
  /** The tool call block left by the fault. */
  toolCall?: 'truncated' | 'none';
  /**
   * The next message in the SAME conversation is refused before sending (the kept answer no longer fits the
   * window: DESIGN.md §2, "nothing is sent"); a new conversation then works normally.
   */
  nextRefused?: boolean;
}

const TOKENS = ['Hello', ' wörld', ' 日本語', ' done.'];
// The connection named by the user's name for it (Ollama's default connection "Ollama", the other one "llama").
const CLOSED = /^The connection to (Ollama|llama) closed before the answer was finished\. What arrived is kept\.$/;
const STALL = /^(Ollama|llama) stopped sending for too long; the stream was given up\. What arrived is kept\.$/;
const TEN_MB = 'x'.repeat(10 * 1024 * 1024);
const OVER_CAP = 17 * 1024 * 1024;
const both = (e: Expected): Partial<Record<FaultDialect, Expected>> => ({ ollama: e, 'llama-server': e });

export const FAULT_CASES: FaultCase[] = [
  {
    name: 'connection refused',
    route: () => 'refused',
    expect: both({ status: 'error', message: /Cannot reach .* at http:\/\/127\.0\.0\.1:\d+\. Is it running\?/, text: '' }),
  },
  {
    name: 'closes mid-line',
    route: (w) => ({ body: w.partial(TOKENS), cutAfterBytes: byteIndex(w.partial(TOKENS), ' 日本語') - 4 }),
    expect: both({ status: 'cut', message: CLOSED, text: 'Hello wörld' }),
  },
  {
    name: 'closes mid-UTF-8 character',
    route: (w) => ({ body: w.partial(TOKENS), cutAfterBytes: byteIndex(w.partial(TOKENS), '本') + 1 }),
    expect: both({ status: 'cut', message: CLOSED, text: (t) => t === 'Hello wörld' && !t.includes('\uFFFD') }),
  },
  {
    name: 'chunks split mid-UTF-8 (1-byte writes)',
    route: (w) => ({ body: w.text(TOKENS), chunk: 1 }),
    expect: both({ status: 'done', text: 'Hello wörld 日本語 done.' }),
  },
  {
    name: 'closes mid-tool-call',
    route: (w) => ({ body: w.toolCall, cutAfterBytes: w.toolCallCut }),
    expect: { ollama: { status: 'cut', message: CLOSED, toolCall: 'none' }, 'llama-server': { status: 'cut', message: CLOSED, toolCall: 'truncated' } },
  },
  {
    name: 'headers, then no bytes (stall)',
    route: () => ({ body: '', hang: true }),
    stalls: true,
    expect: both({ status: 'cut', message: STALL, text: '' }),
  },
  {
    name: 'never ends the stream (hang after tokens)',
    route: (w) => ({ body: w.partial(TOKENS.slice(0, 2)), hang: true }),
    stalls: true,
    expect: both({ status: 'cut', message: STALL, text: 'Hello wörld' }),
  },
  {
    name: 'HTTP 400 exceed_context_size_error',
    route: () => ({ status: 400, body: conformance('context-overflow-nostream-deepseek.json') }),
    expect: { 'llama-server': { status: 'error', message: /n_prompt_tokens=1276 exceeds n_ctx=256.*larger context \(-c\)/, text: '' } },
  },
  {
    name: 'HTTP 400 exceed_context_size_error (stream:true)',
    route: () => ({ status: 400, body: conformance('context-overflow-stream-deepseek.sse') }),
    expect: { 'llama-server': { status: 'error', message: /n_prompt_tokens=1276 exceeds n_ctx=256/, text: '' } },
  },
  {
    name: 'HTTP 404 model not found',
    route: (_w, d) => ({ status: 404, body: fixture(d === 'ollama' ? 'faults/ollama-model-not-found-404.json' : 'faults/llama-server-model-not-found-404.json') }),
    expect: { ollama: { status: 'error', message: /model "nope:latest" not found, try pulling it first/ }, 'llama-server': { status: 'error', message: /model not found \(HTTP 404\)/ } },
  },
  {
    name: 'HTTP 500',
    route: (_w, d) => ({ status: 500, body: fixture(d === 'ollama' ? 'faults/ollama-runner-died-500.json' : 'faults/llama-server-internal-500.json') }),
    expect: { ollama: { status: 'error', message: /llama runner process has terminated/ }, 'llama-server': { status: 'error', message: /decode failed.*\(HTTP 500\)/ } },
  },
  {
    name: 'HTTP 503 while loading / busy',
    route: (_w, d) => ({ status: 503, body: fixture(d === 'ollama' ? 'faults/ollama-busy-503.json' : 'faults/llama-server-loading-503.json') }),
    expect: { ollama: { status: 'error', message: /server busy, please try again/ }, 'llama-server': { status: 'error', message: /Loading model/ } },
  },
  {
    name: 'HTTP 502 with an HTML body (a proxy)',
    route: () => ({ status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>' }),
    expect: both({ status: 'error', message: /502/ }),
  },
  {
    name: 'garbage lines between valid ones',
    route: (w) => ({ body: w.garbage(TOKENS), chunk: 'lines' }),
    expect: both({ status: 'done', text: 'Hello wörld 日本語 done.' }),
  },
  {
    // Issue 15: an answer is capped at 4,000,000 characters; even one line over it is cut there, with a clear stop.
    name: 'a 10 MB line',
    route: (w) => ({ body: w.oneLine(TEN_MB) }),
    expect: both({ status: 'error', message: /passed 4,000,000 characters, so Firebrand stopped reading it; the first 4,000,000 are kept/, text: (t) => t === TEN_MB.slice(0, 4_000_000), nextRefused: true }),
  },
  {
    name: 'a 17 MB line with no newline',
    route: (_w, d) => ({ body: (d === 'ollama' ? '{"message":{"content":"' : 'data: {"choices":[{"delta":{"content":"') + 'y'.repeat(OVER_CAP) }),
    expect: both({ status: 'error', message: /longer than 16 MiB without a line break; the stream was stopped/ }),
  },
];
