/**
 * `npm run -s replay -- FILE [--dialect ollama|openai|anthropic|builtin] [--chunk N | --chunk random:SEED] [--think-open]
 * [--tools TOOLS.json]`: replays a recorded response body through the app's own pipeline (normalizeStream + the
 * reducer + the drain) and prints one JSON object. The output is the same for every chunking.
 * Exit 0 whenever the replay ran (error and cut streams included); 2 for bad input.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { JsonValue } from '../../shared/json';
import { createTurnReducer } from '../../shared/reducer';
import { turnOutput } from '../../shared/reasoning/drain';
import type { Turn } from '../../shared/turn';
import { detectDialect, getDialect } from '../dialects/registry';
import type { Dialect, DialectId, ParserOptions, ToolSchema } from '../dialects/types';
import { normalizeStream } from '../engine/normalize-stream';
import { cutBytes, iterate, parseChunkSpec, type ChunkSpec } from '../leg/chunking';

export class UsageError extends Error {}

export interface ReplayOptions {
  dialect?: string;
  chunk?: ChunkSpec;
  thinkOpen?: boolean;
  tools?: ToolSchema[];
}

export interface ReplayResult {
  dialect: DialectId;
  wire_reason: string | null;
  stop: string;
  error: string | null;
  reasoning: string;
  content: string;
  runs: { kind: string; text: string }[];
  tool_calls: { id: string; name: string; arguments: JsonValue }[];
  invalid_calls: { id: string; name: string; arguments_raw: string; error: string }[];
  usage: { input_tokens: number | null; output_tokens: number | null };
}

function emptyTurn(): Turn {
  return { id: 'replay', conversationId: 'replay', parentId: null, role: 'assistant', blocks: [], meta: {}, status: 'streaming', createdAt: 0 };
}

export async function replay(bytes: Uint8Array, options: ReplayOptions = {}): Promise<ReplayResult> {
  const id = options.dialect ?? detectDialect(new TextDecoder().decode(bytes));
  if (id === undefined) throw new UsageError('Cannot tell which dialect this file speaks; pass --dialect ollama|openai|anthropic|builtin.');
  const dialect = getDialect(id);
  if (!dialect) throw new UsageError(`Unknown dialect "${id}"; expected ollama, openai, anthropic or builtin.`);
  return replayWith(bytes, dialect, options);
}

/** The replay itself, for a dialect already chosen. */
export async function replayWith(bytes: Uint8Array, dialect: Dialect, options: ReplayOptions = {}): Promise<ReplayResult> {
  const parserOptions: ParserOptions = {};
  if (options.thinkOpen) parserOptions.thinkOpen = true;
  if (options.tools) parserOptions.tools = options.tools;
  const reducer = createTurnReducer(emptyTurn());
  const chunks = cutBytes(bytes, options.chunk ?? { kind: 'whole' });
  for await (const part of normalizeStream(iterate(chunks), dialect, parserOptions)) reducer.apply(part);
  const turn = reducer.turn;
  const out = turnOutput(turn);
  const result: ReplayResult = {
    dialect: dialect.id,
    wire_reason: turn.wireReason ?? null,
    stop: turn.stop ?? 'cut',
    error: turn.error ?? null,
    reasoning: out.reasoning,
    content: out.content,
    runs: out.runs.map((r) => ({ kind: r.kind, text: r.text })),
    tool_calls: [],
    invalid_calls: [],
    usage: { input_tokens: turn.usage?.inputTokens ?? null, output_tokens: turn.usage?.outputTokens ?? null },
  };
  for (const b of turn.blocks) {
    if (b.type !== 'tool_call') continue;
    if (b.state === 'complete') result.tool_calls.push({ id: b.id, name: b.name, arguments: b.arguments ?? null });
    // Truncated calls are listed with the invalid ones: both failed, both carry the error sent to the model.
    else result.invalid_calls.push({ id: b.id, name: b.name, arguments_raw: b.argumentsRaw, error: b.error ?? b.state });
  }
  return result;
}

/** Accepts `ToolSchema[]` or OpenAI-style `{type:'function', function:{...}}[]`. */
export function parseTools(text: string): ToolSchema[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new UsageError('TOOLS.json must be a JSON array of tools.');
  return raw.map((t: unknown, i) => {
    const o = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
    const fn = (typeof o['function'] === 'object' && o['function'] !== null ? o['function'] : o) as Record<string, unknown>;
    if (typeof fn['name'] !== 'string') throw new UsageError(`Tool ${i} in TOOLS.json has no name.`);
    const parameters = typeof fn['parameters'] === 'object' && fn['parameters'] !== null ? fn['parameters'] : { type: 'object' };
    return { name: fn['name'], description: typeof fn['description'] === 'string' ? fn['description'] : '', parameters } as ToolSchema;
  });
}

function parseArgs(argv: string[]): { file: string; options: ReplayOptions } {
  let file: string | undefined;
  const options: ReplayOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value.`);
      return v;
    };
    if (arg === '--dialect') options.dialect = value();
    else if (arg === '--chunk') {
      const text = value();
      const spec = parseChunkSpec(text);
      if (!spec) throw new UsageError(`--chunk takes a positive byte count or random:SEED, not "${text}".`);
      options.chunk = spec;
    } else if (arg === '--think-open') options.thinkOpen = true;
    else if (arg === '--tools') {
      const path = value();
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (e) {
        throw new UsageError(`Cannot read tools file ${path}: ${e instanceof Error ? e.message : String(e)}`);
      }
      try {
        options.tools = parseTools(text);
      } catch (e) {
        throw e instanceof UsageError ? e : new UsageError(`Tools file ${path} is not valid JSON.`);
      }
    } else if (arg.startsWith('--')) throw new UsageError(`Unknown option ${arg}.`);
    else if (file === undefined) file = arg;
    else throw new UsageError(`Only one FILE may be given (got "${file}" and "${arg}").`);
  }
  if (file === undefined) throw new UsageError('Usage: replay FILE [--dialect ollama|openai|anthropic|builtin] [--chunk N | --chunk random:SEED] [--think-open] [--tools TOOLS.json]');
  return { file, options };
}

async function main(argv: string[]): Promise<number> {
  try {
    const { file, options } = parseArgs(argv);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (e) {
      throw new UsageError(`Cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
    process.stdout.write(`${JSON.stringify(await replay(bytes, options))}\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`replay: ${e.message}\n`);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e: unknown) => {
      process.stderr.write(`replay: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
