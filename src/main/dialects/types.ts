import type { JsonObject } from '../../shared/json';
import type { StreamPart } from '../../shared/parts';
import type { Turn } from '../../shared/turn';
import type { AttachmentMaterializer } from './shared/materialize';

export type DialectId = 'ollama' | 'openai' | 'anthropic' | 'builtin';

/** How a response body is cut into events: Ollama speaks NDJSON, the others SSE. */
export type Framing = 'ndjson' | 'sse';

/** One framed event: an NDJSON line (`data` = the line) or an SSE event (`event` = its type, if named). */
export interface WireEvent {
  event?: string;
  data: string;
}

/** A tool the model may call; `parameters` is a JSON Schema for the arguments. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: JsonObject;
}

/** Everything `encode` needs; attachments are materialized by the caller's `materialize`. */
export interface EncodeInput {
  model: string;
  /** The conversation so far, system prompt first if any, oldest first. */
  turns: Turn[];
  tools?: ToolSchema[];
  /** Sampling parameters (temperature, top_p, ...) passed as the dialect expects them. */
  params?: Record<string, number | string | boolean>;
  /** The explicit context window (Ollama `options.num_ctx`); undefined where the server fixes it. */
  contextWindow?: number;
  think?: boolean;
  maxTokens?: number;
  stream: boolean;
  /** What each attachment becomes (an image, or its exact text); the dialect wraps it as its wire wants. */
  materialize?: AttachmentMaterializer;
  /** The model file the built-in engine runs (its request record names it). */
  modelFile?: { bytes: number; sha256: string | null };
  /** Without `materialize`: an attachment's bytes by sha256 id (images as stored, text files decoded). */
  resolveAttachment?: (id: string) => Uint8Array | undefined;
}

export interface ParserOptions {
  tools?: ToolSchema[];
  /** The rendered prompt ended inside an open think block: the splitter starts inside it. */
  thinkOpen?: boolean;
}

/** Turns one response's wire events into canonical parts. Stateful: one parser per response. */
export interface WireParser {
  push(event: WireEvent): StreamPart[];
  /** The stream ended (cleanly or not): closes open runs and emits the final `finish` part. */
  end(): StreamPart[];
}

export interface Dialect {
  id: DialectId;
  framing: Framing;
  /** Each streamed chunk carries several tokens (engine/chunk-count.ts counts them by characters): Anthropic. */
  severalTokensPerChunk?: boolean;
  /** The path appended to the connection's base URL for a chat request. */
  chatPath: string;
  encode(input: EncodeInput): JsonObject;
  createParser(options?: ParserOptions): WireParser;
  /** The user-facing message in a non-2xx response body (or a fallback naming the status). */
  errorMessage(status: number, body: string): string;
}
