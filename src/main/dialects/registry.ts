import { anthropicDialect } from './anthropic/index';
import { builtinDialect } from './builtin/index';
import { ollamaDialect } from './ollama/index';
import { openaiDialect } from './openai/index';
import type { Dialect, DialectId } from './types';

export const dialects: Record<DialectId, Dialect> = {
  ollama: ollamaDialect,
  openai: openaiDialect,
  anthropic: anthropicDialect,
  builtin: builtinDialect,
};

export const DIALECT_IDS = Object.keys(dialects) as DialectId[];

export function isDialectId(id: string): id is DialectId {
  return Object.hasOwn(dialects, id);
}

export function getDialect(id: DialectId): Dialect;
export function getDialect(id: string): Dialect | undefined;
export function getDialect(id: string): Dialect | undefined {
  return isDialectId(id) ? dialects[id] : undefined;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(text: string): Rec | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isRec(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Which dialect one JSON object (an NDJSON line, an SSE data payload or a whole body) speaks, if it tells. */
function fromObject(o: Rec): DialectId | undefined {
  // The built-in engine's events: `start`/`text`/`done`, and an `error` with a plain message (Anthropic's nests it).
  if (o['type'] === 'start' || o['type'] === 'text' || o['type'] === 'done') return 'builtin';
  if (o['type'] === 'error' && typeof o['message'] === 'string' && !('error' in o)) return 'builtin';
  if ('choices' in o || o['object'] === 'chat.completion' || o['object'] === 'chat.completion.chunk') return 'openai';
  if (typeof o['type'] === 'string' && (o['type'] === 'message' || o['type'] === 'error' || o['type'].startsWith('message_') || o['type'].startsWith('content_block'))) return 'anthropic';
  if ('message' in o || 'done' in o) return 'ollama';
  // `{"error": {...}}` is OpenAI's shape (llama-server's HTTP 400); Ollama's error is a plain string.
  if (isRec(o['error'])) return 'openai';
  if (typeof o['error'] === 'string') return 'ollama';
  return undefined;
}

/**
 * Guesses a recorded body's dialect (for the replay command): SSE with Anthropic event names -> anthropic; SSE
 * `data:` chunks with `choices` (or llama.cpp's legacy `error:` field) -> openai; JSON lines with
 * `message`/`done` -> ollama; a whole JSON body by its keys.
 */
export function detectDialect(bytes: string): DialectId | undefined {
  const text = bytes.replace(/^\uFEFF/, '').trim();
  if (text === '') return undefined;
  if (/^event:\s*(message_start|content_block_\w+|message_delta|message_stop|ping)\s*$/m.test(text)) return 'anthropic';
  const lines = text.split(/\r?\n/);
  const dataLines = lines.filter((l) => l.startsWith('data:'));
  // llama.cpp's legacy SSE field (fixture openai/legacy-error-field): `error: {"code":..,"message":..}`. Only
  // llama-server speaks it, so an error object there names the OpenAI dialect even when no data line does.
  const legacyErrors = lines.filter((l) => l.startsWith('error:'));
  if (dataLines.length > 0 || legacyErrors.length > 0) {
    for (const line of dataLines) {
      const o = parseJson(line.slice(5).trim());
      const id = o && fromObject(o);
      if (id) return id;
    }
    for (const line of legacyErrors) {
      const o = parseJson(line.slice(6).trim());
      if (o && typeof o['message'] === 'string') return 'openai';
    }
    return undefined;
  }
  const whole = parseJson(text);
  if (whole) return fromObject(whole);
  for (const line of text.split(/\r?\n/)) {
    const o = parseJson(line.trim());
    const id = o && fromObject(o);
    if (id) return id;
  }
  return undefined;
}
