import type { StreamPart } from '../../../shared/parts';
import { ContentRuns } from '../../../shared/reasoning/content-runs';
import type { Usage } from '../../../shared/turn';
import { deriveStop, type ObservedBlock } from '../shared/derive-stop';
import { validateToolCall } from '../shared/tool-args';
import type { ParserOptions, WireEvent, WireParser } from '../types';
import { errorOf, errorTypeOf } from './errors';
import { FrameTemplate, soleHole, type Template } from '../shared/frame-template';

type Block =
  | { kind: 'text'; observed: ObservedBlock }
  /** `signature` (signature_delta) or `redacted` (a redacted_thinking block's data): what the API wants back. */
  | { kind: 'thinking'; id: string; observed: ObservedBlock; signature?: string; redacted?: string }
  | { kind: 'tool'; id: string; name: string; raw: string; observed: ObservedBlock }
  | { kind: 'ignored' };

interface Payload {
  type?: unknown;
  index?: unknown;
  message?: { usage?: Record<string, unknown> };
  /** A non-streaming response (`stream: false`) is one `message` object with every block whole. */
  content?: unknown;
  stop_reason?: unknown;
  content_block?: { type?: unknown; id?: unknown; name?: unknown; data?: unknown };
  delta?: { type?: unknown; text?: unknown; thinking?: unknown; partial_json?: unknown; signature?: unknown; stop_reason?: unknown };
  usage?: Record<string, unknown>;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * `/v1/messages` SSE events -> canonical parts (https://docs.claude.com/en/docs/build-with-claude/streaming).
 *
 * - Text blocks go through ContentRuns (a gateway may pass `<think>` inline); each block is its own run.
 * - Thinking blocks are native reasoning runs. Their `signature_delta` and a `redacted_thinking` block's `data`
 *   carry nothing readable, but end the run (reasoning-end) with it: with thinking on, a tool-use step's next
 *   request must send them back unchanged, or the API refuses it (encode.ts).
 * - `input_json_delta` fragments (the first is often `""`, fixture `tool-use-fragments`) are concatenated and
 *   parsed at `content_block_stop`. JSON that does not parse there is held until the stop reason is known:
 *   under `max_tokens` it is a truncated call, not the model's invalid one (fixture `max-tokens-in-tool-use-closed`).
 * - A block still open when the stream ends fails as truncated (DESIGN.md §3), even after a clean-looking
 *   `end_turn`: a tool_use block without its `content_block_stop` is never judged invalid (fixture
 *   tool-use-unclosed).
 * - `ping` and unknown event types are ignored: the API documents that new event types may appear.
 */
export class AnthropicParser implements WireParser {
  private counter = 0;
  private readonly nextId = (): string => `p${this.counter++}`;
  private readonly runs: ContentRuns;
  private readonly blocks = new Map<number, Block>();
  private readonly observed: ObservedBlock[] = [];
  /** Tool calls whose JSON did not parse at block stop: truncated or invalid depends on the stop reason. */
  private held: Array<Extract<Block, { kind: 'tool' }>> = [];
  /** Tool calls the wire never stopped: truncated whatever the stop reason says (fixture tool-use-unclosed). */
  private unclosed: Array<Extract<Block, { kind: 'tool' }>> = [];
  private wireReason: string | null = null;
  private sawTerminal = false;
  private errored = false;
  private usage: Usage = {};
  private over = false;
  private ended = false;
  /** This response's frames repeat one shape: read through a template where they do (see frame-template). */
  private readonly frames = new FrameTemplate(plainDeltaHole);

  constructor(private readonly options: ParserOptions = {}) {
    this.runs = new ContentRuns({ nextId: this.nextId, startInside: options.thinkOpen ?? false });
  }

  push(event: WireEvent): StreamPart[] {
    if (this.over || this.ended) return [];
    // The common token: a `content_block_delta` frame whose only hole is its delta's text (see plainDeltaHole),
    // read by that string alone.
    const plain = this.frames.readPlain(event.data);
    if (plain !== undefined) {
      const template = this.frames.current!.value as Payload;
      return this.deltaString(num(template.index) ?? 0, template.delta!.type, plain);
    }
    let data: Payload;
    try {
      const parsed: unknown = this.frames.parse(event.data);
      if (!parsed || typeof parsed !== 'object') return [];
      data = parsed as Payload;
    } catch {
      return []; // SSE comments and keep-alives never reach here; a broken data line carries nothing usable.
    }
    const type = typeof data.type === 'string' ? data.type : event.event;
    const index = num(data.index) ?? 0;
    switch (type) {
      case 'message_start':
        // Its output_tokens is a placeholder (1), not a count: the count comes with message_delta, at the end. Kept
        // as the answer's usage, a stopped answer said "1 token" in place of main's count of what streamed.
        this.addUsage(data.message?.usage, false);
        return [];
      case 'content_block_start':
        return this.start(index, data.content_block ?? {});
      case 'content_block_delta':
        return this.delta(index, data.delta ?? {});
      case 'content_block_stop':
        return this.stop(index);
      case 'message_delta': {
        if (typeof data.delta?.stop_reason === 'string') this.wireReason = data.delta.stop_reason;
        this.addUsage(data.usage);
        return this.release(this.wireReason === 'max_tokens' ? 'truncated' : 'invalid');
      }
      case 'message':
        return this.whole(data);
      case 'message_stop':
        this.sawTerminal = true;
        this.over = true;
        return [];
      case 'error': {
        this.errored = true;
        this.over = true;
        const code = errorTypeOf(data);
        return [{ type: 'error', message: errorOf(data) ?? 'The server reported an error.', ...(code ? { code } : {}) }];
      }
      default:
        return [];
    }
  }

  end(): StreamPart[] {
    if (this.ended) return [];
    this.ended = true;
    const parts: StreamPart[] = [];
    for (const index of [...this.blocks.keys()]) parts.push(...this.closeOpen(index));
    parts.push(...this.release(this.wireReason === 'max_tokens' || !this.sawTerminal ? 'truncated' : 'invalid'));
    parts.push(...this.release('truncated', 'unclosed'));
    const stop = deriveStop({ wireReason: this.wireReason, sawTerminal: this.sawTerminal, errored: this.errored, blocks: this.observed });
    const usage = Object.keys(this.usage).length > 0 ? { ...this.usage } : undefined;
    if (usage) parts.push({ type: 'usage', usage });
    parts.push({ type: 'finish', wireReason: this.wireReason, stop, ...(usage ? { usage } : {}) });
    return parts;
  }

  private start(index: number, block: NonNullable<Payload['content_block']>): StreamPart[] {
    const parts: StreamPart[] = [...this.closeOpen(index), ...this.runs.closeRun()];
    const observe = (kind: ObservedBlock['kind']): ObservedBlock => {
      const o: ObservedBlock = { kind, state: 'open' };
      this.observed.push(o);
      return o;
    };
    if (block.type === 'text') {
      this.blocks.set(index, { kind: 'text', observed: observe('text') });
    } else if (block.type === 'thinking') {
      this.runs.serverSeparatedReasoning();
      const id = this.nextId();
      this.blocks.set(index, { kind: 'thinking', id, observed: observe('reasoning') });
      parts.push({ type: 'reasoning-start', id, origin: 'native' });
    } else if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
      // Encrypted reasoning: an empty run that keeps the data to send back.
      this.runs.serverSeparatedReasoning();
      const id = this.nextId();
      this.blocks.set(index, { kind: 'thinking', id, observed: observe('reasoning'), redacted: block.data });
      parts.push({ type: 'reasoning-start', id, origin: 'native' });
    } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      const id = this.nextId();
      const name = typeof block.name === 'string' ? block.name : '';
      const toolCallId = typeof block.id === 'string' && block.id ? block.id : `toolu_${index}`;
      this.blocks.set(index, { kind: 'tool', id, name, raw: '', observed: observe('tool_call') });
      parts.push({ type: 'tool-call-start', id, toolCallId, name });
    } else {
      // Block types we do not know: nothing to show, nothing to close.
      this.blocks.set(index, { kind: 'ignored' });
    }
    return parts;
  }

  private delta(index: number, delta: NonNullable<Payload['delta']>): StreamPart[] {
    const field = DELTA_FIELD.get(delta.type);
    return this.deltaString(index, delta.type, field === undefined ? undefined : delta[field]);
  }

  /** A delta of `type` whose text (`text`, `thinking` or `partial_json`, as DELTA_FIELD says) is `value`. */
  private deltaString(index: number, type: unknown, value: unknown): StreamPart[] {
    const block = this.blocks.get(index);
    if (!block || typeof value !== 'string') return [];
    if (block.kind === 'text' && type === 'text_delta') return this.runs.push(value);
    if (block.kind === 'thinking' && type === 'thinking_delta' && value) return [{ type: 'reasoning-delta', id: block.id, delta: value }];
    if (block.kind === 'thinking' && type === 'signature_delta' && value) {
      block.signature = (block.signature ?? '') + value;
      return [];
    }
    if (block.kind === 'tool' && type === 'input_json_delta' && value) {
      block.raw += value;
      return [{ type: 'tool-call-delta', id: block.id, delta: value }];
    }
    return []; // citations_delta, ...
  }

  private stop(index: number): StreamPart[] {
    const block = this.blocks.get(index);
    if (!block) return [];
    this.blocks.delete(index);
    switch (block.kind) {
      case 'text':
        block.observed.state = 'closed';
        return this.runs.closeRun();
      case 'thinking':
        block.observed.state = 'closed';
        return [thinkingEnd(block)];
      case 'tool': {
        if (!parses(block.raw)) {
          this.held.push(block);
          return [];
        }
        const verdict = validateToolCall(block.name, block.raw, this.options.tools);
        block.observed.state = verdict.ok ? 'complete' : 'invalid';
        return [
          verdict.ok
            ? { type: 'tool-call-end', id: block.id, state: 'complete', arguments: verdict.value }
            : { type: 'tool-call-end', id: block.id, state: 'invalid', error: verdict.error },
        ];
      }
      case 'ignored':
        return [];
    }
  }

  /** `stream: false`: replays the whole message as the block events it would have streamed. */
  private whole(data: Payload): StreamPart[] {
    const parts: StreamPart[] = [];
    const blocks = Array.isArray(data.content) ? (data.content as unknown[]) : [];
    blocks.forEach((raw, index) => {
      const b = (raw && typeof raw === 'object' ? raw : {}) as { type?: unknown; text?: unknown; thinking?: unknown; signature?: unknown; input?: unknown };
      parts.push(...this.start(index, b as NonNullable<Payload['content_block']>));
      if (b.type === 'text') parts.push(...this.delta(index, { type: 'text_delta', text: b.text }));
      if (b.type === 'thinking') parts.push(...this.delta(index, { type: 'thinking_delta', thinking: b.thinking }), ...this.delta(index, { type: 'signature_delta', signature: b.signature }));
      if (b.type === 'tool_use') parts.push(...this.delta(index, { type: 'input_json_delta', partial_json: JSON.stringify(b.input ?? {}) }));
      parts.push(...this.stop(index));
    });
    this.addUsage(data.usage);
    if (typeof data.stop_reason === 'string') this.wireReason = data.stop_reason;
    parts.push(...this.release(this.wireReason === 'max_tokens' ? 'truncated' : 'invalid'));
    this.sawTerminal = true;
    this.over = true;
    return parts;
  }

  /** A block the wire never closed. */
  private closeOpen(index: number): StreamPart[] {
    const block = this.blocks.get(index);
    if (!block) return [];
    if (block.kind === 'tool') {
      // No `content_block_stop`: whatever its JSON looks like, nobody knows the model was done writing it.
      this.blocks.delete(index);
      this.unclosed.push(block);
      return [];
    }
    // An unclosed thinking block keeps no signature: the API would refuse it back, as cut short.
    const parts = block.kind === 'text' ? this.runs.closeRun() : block.kind === 'thinking' ? [{ type: 'reasoning-end', id: block.id } as const] : [];
    this.blocks.delete(index);
    return parts;
  }

  private release(as: 'truncated' | 'invalid', which: 'held' | 'unclosed' = 'held'): StreamPart[] {
    const parts: StreamPart[] = [];
    for (const block of this[which]) {
      block.observed.state = as;
      const error =
        as === 'truncated'
          ? `The response ended before the arguments for ${block.name} were complete (${block.raw.length} characters arrived). Call the tool again with complete arguments.`
          : (validateToolCall(block.name, block.raw, this.options.tools) as { ok: false; error: string }).error;
      parts.push({ type: 'tool-call-end', id: block.id, state: as, error });
    }
    this[which] = [];
    return parts;
  }

  /** `final`: the usage holds the output count (message_delta's, cumulative; a whole message's), not message_start's. */
  private addUsage(usage: Record<string, unknown> | undefined, final = true): void {
    if (!usage) return;
    // Prompt tokens = fresh + cache writes + cache reads: what the window actually held (calibration, §2).
    const input = num(usage.input_tokens);
    if (input !== undefined) {
      this.usage.inputTokens = input + (num(usage.cache_creation_input_tokens) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0);
    }
    const output = final ? num(usage.output_tokens) : undefined;
    if (output !== undefined) this.usage.outputTokens = output; // cumulative in message_delta
  }
}

/** The field that holds each readable delta type's text. */
const DELTA_FIELD = new Map<unknown, 'text' | 'thinking' | 'partial_json' | 'signature'>([
  ['text_delta', 'text'],
  ['thinking_delta', 'thinking'],
  ['input_json_delta', 'partial_json'],
  ['signature_delta', 'signature'],
]);

function thinkingEnd(block: Extract<Block, { kind: 'thinking' }>): StreamPart {
  return { type: 'reasoning-end', id: block.id, ...(block.signature ? { signature: block.signature } : {}), ...(block.redacted ? { redacted: block.redacted } : {}) };
}

/**
 * Which hole of a template holds a delta's text when every frame it matches is a `content_block_delta` whose
 * meaning is that text alone: type, index and delta type are fixed in the template (numbers and the strings that
 * never varied are not holes), its text field (DELTA_FIELD) is a hole, and no other hole lies in what `push`
 * reads. -1 otherwise.
 */
function plainDeltaHole(t: Template): number {
  const value = t.value as Payload;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value.type !== 'content_block_delta') return -1;
  const delta = value.delta;
  if (delta === null || typeof delta !== 'object' || Array.isArray(delta)) return -1;
  const field = DELTA_FIELD.get(delta.type);
  if (field === undefined) return -1;
  return soleHole(t, ['type', 'index', 'delta'], (path) => path.length === 2 && path[0] === 'delta' && path[1] === field);
}

function parses(raw: string): boolean {
  if (raw.trim() === '') return true;
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
}
