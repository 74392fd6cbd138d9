import type { JsonValue } from '../../../shared/json';
import type { StreamPart } from '../../../shared/parts';
import { ContentRuns } from '../../../shared/reasoning/content-runs';
import type { Usage } from '../../../shared/turn';
import { deriveStop, type ObservedBlock } from '../shared/derive-stop';
import { validateToolCall } from '../shared/tool-args';
import type { ParserOptions, WireEvent, WireParser } from '../types';
import { FrameTemplate, soleHole, type Template } from '../shared/frame-template';

/** The fields of one `/api/chat` NDJSON line we read (docs/api.md "Generate a chat completion"). */
interface OllamaChunk {
  message?: { content?: unknown; thinking?: unknown; tool_calls?: unknown };
  done?: unknown;
  done_reason?: unknown;
  error?: unknown;
  prompt_eval_count?: unknown;
  eval_count?: unknown;
  prompt_eval_duration?: unknown;
  eval_duration?: unknown;
  total_duration?: unknown;
}

const NS_PER_MS = 1_000_000;

/**
 * One response's NDJSON lines -> canonical parts (DESIGN.md §3, §4).
 *
 * - `message.content` goes through ContentRuns: older Ollama and passthrough templates put `<think>` inline
 *   (escaped on the wire as `\u003cthink\u003e`, which JSON.parse undoes; fixture `inline-think-escaped`).
 * - `message.thinking` is server-parsed reasoning (`think: true`); it is its own run.
 * - `message.tool_calls` arrives whole in one chunk with `arguments` already an object, and `done_reason`
 *   still says `stop` (fixture `tool-call-stop`): each call is closed at once and deriveStop makes it `tool_use`.
 * - A `{"error": "..."}` line after streaming began (HTTP 200, no `done`) is the server's error report.
 * - A line that is not JSON is skipped and kept in `skippedLines`: one garbled line (a proxy's keep-alive, a
 *   log line) should not throw away an answer that otherwise arrives whole; the terminal `done` still decides.
 *   A stream of such lines only (an OpenAI-style stream, a web page) ends with an error saying it is not Ollama's.
 */
export class OllamaParser implements WireParser {
  /** Lines that were not JSON objects, kept for the record and the debug view. */
  readonly skippedLines: string[] = [];
  private counter = 0;
  private readonly nextId = (): string => `p${this.counter++}`;
  private readonly runs: ContentRuns;
  private nativeId: string | null = null;
  private toolCalls = 0;
  private readonly blocks: ObservedBlock[] = [];
  private sawTerminal = false;
  private errored = false;
  /** Whether any line was one of Ollama's (a JSON object): a stream of none is not Ollama's, not a cut one. */
  private readAny = false;
  private wireReason: string | null = null;
  private usage: Usage | undefined;
  /** After `done` or an error line nothing more belongs to this response. */
  private over = false;
  private ended = false;
  /** This response's frames repeat one shape: read through a template where they do (see frame-template). */
  private readonly frames = new FrameTemplate(plainHole);

  constructor(private readonly options: ParserOptions = {}) {
    this.runs = new ContentRuns({ nextId: this.nextId, startInside: options.thinkOpen ?? false });
  }

  push(event: WireEvent): StreamPart[] {
    if (this.over || this.ended) return [];
    // JSON.parse skips surrounding whitespace itself: no trimmed copy of every line on the hot path.
    const line = event.data;
    if (line.length === 0 || (line.charCodeAt(0) <= 32 && line.trim() === '')) return [];
    // The common token, read by its content or thinking alone when its template's lines mean nothing else
    // (plainHole); content only while no native reasoning run is open.
    const key = this.frames.plainKey;
    if (key !== undefined && (key !== 'content' || this.nativeId === null)) {
      const text = this.frames.readPlain(line);
      if (text !== undefined) return key === 'content' ? this.runs.push(text) : text === '' ? [] : this.nativeDelta(text);
    }
    let chunk: OllamaChunk;
    try {
      const parsed: unknown = this.frames.parse(line);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      chunk = parsed as OllamaChunk;
      this.readAny = true;
    } catch {
      this.skippedLines.push(line);
      return [];
    }
    const message = chunk.message;
    // The common token: content only, nothing else in the line to act on. Its parts are the splitter's, as they are.
    if (
      chunk.done !== true &&
      (chunk.error === undefined || chunk.error === null) &&
      this.nativeId === null &&
      message &&
      typeof message.content === 'string' &&
      message.content !== '' &&
      (message.thinking === undefined || message.thinking === '') &&
      message.tool_calls === undefined
    ) {
      return this.runs.push(message.content);
    }
    const parts: StreamPart[] = [];
    if (chunk.error !== undefined && chunk.error !== null) {
      this.errored = true;
      this.over = true;
      parts.push({ type: 'error', message: errorText(chunk.error) });
      return parts;
    }
    if (message && typeof message === 'object') {
      // Within one chunk: reasoning, then content, then tool-call close (DESIGN.md §4).
      if (typeof message.thinking === 'string' && message.thinking !== '') parts.push(...this.nativeDelta(message.thinking));
      if (typeof message.content === 'string' && message.content !== '') {
        if (this.nativeId !== null) parts.push(...this.closeNative());
        for (const part of this.runs.push(message.content)) parts.push(part);
      }
      if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
        parts.push(...this.closeNative(), ...this.runs.closeRun());
        for (const call of message.tool_calls) parts.push(...this.toolCall(call));
      }
    }
    if (chunk.done === true) {
      this.sawTerminal = true;
      this.over = true;
      this.wireReason = typeof chunk.done_reason === 'string' && chunk.done_reason !== '' ? chunk.done_reason : null;
      this.usage = usageOf(chunk);
      if (this.usage) parts.push({ type: 'usage', usage: this.usage });
    }
    return parts;
  }

  end(): StreamPart[] {
    if (this.ended) return [];
    this.ended = true;
    const parts: StreamPart[] = [...this.closeNative(), ...this.runs.closeRun()];
    // Nothing but lines that are not Ollama's (an OpenAI-style stream, a web page, a proxy's text): the server at
    // this address is not speaking Ollama. "The connection closed before the answer was finished" was untrue. A
    // first line cut mid-way by a connection that broke begins as Ollama's do ("{"), and stays a cut.
    const foreign = this.readAny || this.sawTerminal || this.errored ? undefined : this.skippedLines.find((l) => !l.trimStart().startsWith('{'));
    if (foreign !== undefined) {
      this.errored = true;
      parts.push({ type: 'error', message: notOllamaStream(foreign) });
    }
    const stop = deriveStop({
      wireReason: this.wireReason,
      sawTerminal: this.sawTerminal,
      errored: this.errored,
      blocks: this.blocks,
    });
    parts.push({ type: 'finish', wireReason: this.wireReason, stop, ...(this.usage ? { usage: this.usage } : {}) });
    return parts;
  }

  private nativeDelta(delta: string): StreamPart[] {
    const parts: StreamPart[] = [];
    if (this.nativeId === null) {
      parts.push(...this.runs.closeRun());
      this.runs.serverSeparatedReasoning();
      this.nativeId = this.nextId();
      parts.push({ type: 'reasoning-start', id: this.nativeId, origin: 'native' });
    }
    parts.push({ type: 'reasoning-delta', id: this.nativeId, delta });
    return parts;
  }

  private closeNative(): StreamPart[] {
    if (this.nativeId === null) return [];
    const id = this.nativeId;
    this.nativeId = null;
    return [{ type: 'reasoning-end', id }];
  }

  /** One whole call: Ollama gives no id before v0.12-ish (`call_<n>` is made), newer ones may give `id`. */
  private toolCall(call: unknown): StreamPart[] {
    const index = this.toolCalls++;
    const c = (call && typeof call === 'object' ? call : {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const fn = c.function && typeof c.function === 'object' ? c.function : {};
    const toolCallId = typeof c.id === 'string' && c.id !== '' ? c.id : `call_${index}`;
    const name = typeof fn.name === 'string' ? fn.name : '';
    // Arguments are an object on this wire; a string (seen from some proxies) is taken as the raw JSON text.
    const raw = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify((fn.arguments ?? {}) as JsonValue);
    const id = this.nextId();
    const verdict = name
      ? validateToolCall(name, raw, this.options.tools)
      : ({ ok: false, error: 'The tool call had no function name.' } as const);
    this.blocks.push({ kind: 'tool_call', state: verdict.ok ? 'complete' : 'invalid' });
    return [
      { type: 'tool-call-start', id, toolCallId, name },
      { type: 'tool-call-delta', id, delta: raw },
      verdict.ok
        ? { type: 'tool-call-end', id, state: 'complete', arguments: verdict.value }
        : { type: 'tool-call-end', id, state: 'invalid', error: verdict.error },
    ];
  }
}

/**
 * Which hole of a template holds the one string its lines mean: for every line it matches, `push` would only hand
 * `message.content` to `runs.push` (which does nothing with ''; only while no native reasoning run is open), or
 * `message.thinking` to `nativeDelta` (nothing for ''). Worked out on the template's value (every matching line's
 * value but for its hole strings): not `done`, no `error`, no tool calls, that field a hole and nothing in the
 * other (no thinking beside content, content '' beside thinking); any other hole lies outside `message`, `done`
 * and `error` (`created_at` ticks on every line). -1 otherwise.
 */
function plainHole(t: Template): number {
  const chunk = t.value as OllamaChunk;
  if (chunk === null || typeof chunk !== 'object' || Array.isArray(chunk) || chunk.done === true) return -1;
  if (chunk.error !== undefined && chunk.error !== null) return -1;
  const message = chunk.message;
  if (!message || typeof message !== 'object' || Array.isArray(message) || message.tool_calls !== undefined) return -1;
  const field = typeof message.thinking === 'string' && message.thinking !== '' ? 'thinking' : 'content';
  if (field === 'content' ? message.thinking !== undefined && message.thinking !== '' : typeof message.content === 'string' && message.content !== '') return -1;
  return soleHole(t, ['message', 'done', 'error'], (path) => path.length === 2 && path[0] === 'message' && path[1] === field);
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return JSON.stringify(error);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Counts and nanosecond durations from the `done` line, as milliseconds. */
function usageOf(chunk: OllamaChunk): Usage | undefined {
  const usage: Usage = {};
  const input = num(chunk.prompt_eval_count);
  const output = num(chunk.eval_count);
  const promptNs = num(chunk.prompt_eval_duration);
  const evalNs = num(chunk.eval_duration);
  const totalNs = num(chunk.total_duration);
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (promptNs !== undefined) usage.promptMs = promptNs / NS_PER_MS;
  if (evalNs !== undefined) usage.generationMs = evalNs / NS_PER_MS;
  if (totalNs !== undefined) usage.totalMs = totalNs / NS_PER_MS;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** What a stream of no Ollama line says: how it began (a page's markup is not shown), and where to look. */
function notOllamaStream(first: string): string {
  const line = first.trim();
  const began = line.startsWith('<') ? 'a web page' : `"${line.length > 32 ? `${line.slice(0, 32)}…` : line}"`;
  return `The answer could not be read: it was not in Ollama's format (it began with ${began}). Is the server at this address Ollama? Check its kind in Settings → Connections.`;
}
