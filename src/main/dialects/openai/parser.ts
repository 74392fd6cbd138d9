import type { StreamPart } from '../../../shared/parts';
import { ContentRuns } from '../../../shared/reasoning/content-runs';
import type { Usage } from '../../../shared/turn';
import { deriveStop, type ObservedBlock } from '../shared/derive-stop';
import type { ParserOptions, WireEvent, WireParser } from '../types';
import { describeOpenAiError } from './errors';
import { ToolCallBlocks, type ToolFragment } from './tool-calls';
import { hasUsage, mergeUsage } from './usage';
import { FrameTemplate, soleHole, type Template } from '../shared/frame-template';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * `/v1/chat/completions` events -> canonical parts. Handles streamed chunks (`choices[0].delta`) and a whole
 * non-streaming response (`choices[0].message`) delivered as one event.
 *
 * The terminal frame is `finish_reason`, not `[DONE]`: `[DONE]` only says the transport finished, so a stream
 * with `[DONE]` but no `finish_reason` still derives `cut` (DESIGN.md §3; fixture test/fixtures/openai/done-without-finish).
 * Tool-call fragments are still accepted after `finish_reason` and the calls are judged at the end.
 */
export class OpenAiParser implements WireParser {
  private n = 0;
  private readonly nextId = (): string => `p${this.n++}`;
  private readonly runs: ContentRuns;
  private readonly calls: ToolCallBlocks;
  private native: string | undefined;
  private wireReason: string | null = null;
  private sawTerminal = false;
  private errored = false;
  private usage: Usage = {};
  private ended = false;
  /** This response's frames repeat one shape: read through a template where they do (see frame-template). */
  private readonly frames = new FrameTemplate(plainContentHole);

  constructor(options: ParserOptions = {}) {
    this.runs = new ContentRuns({ nextId: this.nextId, startInside: options.thinkOpen ?? false });
    this.calls = new ToolCallBlocks(this.nextId, options.tools);
  }

  push(event: WireEvent): StreamPart[] {
    if (this.ended || this.errored) return [];
    // JSON.parse skips surrounding whitespace itself; only the sentinel needs the trimmed form (no copy per token).
    const data = event.data;
    if (data.length < 16 && (data === '' || data.trim() === '[DONE]')) return [];
    // The common token: a frame of a template whose frames carry only content (see plainContentHole), read by its
    // content alone while no native reasoning run is open.
    if (this.native === undefined && event.event !== 'error') {
      const content = this.frames.readPlain(data);
      if (content !== undefined) return this.runs.push(content);
    }
    let chunk: unknown;
    try {
      chunk = this.frames.parse(data);
    } catch {
      if (event.event === 'error') return this.fail({ message: data });
      // A half-written last line of a cut stream: nothing usable in it; the missing terminal says `cut`.
      return [];
    }
    if (!isRec(chunk)) return [];
    if (event.event === 'error' || 'error' in chunk) return this.fail(describeOpenAiError(chunk['error'] ?? chunk));
    this.usage = mergeUsage(this.usage, chunk);
    const choice = firstChoice(chunk['choices']);
    if (choice === undefined) return [];
    const delta = isRec(choice['delta']) ? choice['delta'] : isRec(choice['message']) ? choice['message'] : {};
    const parts = this.applyDelta(delta);
    const finish = str(choice['finish_reason']);
    if (finish) {
      this.sawTerminal = true;
      this.wireReason = finish;
    }
    return parts;
  }

  end(): StreamPart[] {
    if (this.ended) return [];
    this.ended = true;
    const parts = [...this.closeNative(), ...this.runs.closeRun()];
    // Tool blocks are judged here, not at `finish_reason`: a server may send an argument fragment after it
    // (fixture args-after-finish), and only the end of the stream says no more can come. `tool_calls`/`stop`
    // close the blocks; `length` or no terminal at all leaves them open, to fail as truncated.
    if (this.wireReason !== null && CLOSES_CALLS.has(this.wireReason)) parts.push(...this.calls.closeAll());
    const { parts: truncated, openAtEnd } = this.calls.truncateOpen();
    parts.push(...truncated);
    const blocks: ObservedBlock[] = [...this.calls.observed, ...openAtEnd];
    const stop = deriveStop({ wireReason: this.wireReason, sawTerminal: this.sawTerminal, errored: this.errored, blocks });
    if (hasUsage(this.usage)) {
      parts.push({ type: 'usage', usage: this.usage });
      parts.push({ type: 'finish', wireReason: this.wireReason, stop, usage: this.usage });
    } else {
      parts.push({ type: 'finish', wireReason: this.wireReason, stop });
    }
    return parts;
  }

  /** Within one chunk: reasoning, then content, then tool calls (DESIGN.md §4). */
  private applyDelta(delta: Rec): StreamPart[] {
    const content = str(delta['content']);
    // The common token: content only, no reasoning run to close. Its parts are the splitter's, as they are.
    if (content && this.native === undefined && delta['reasoning_content'] === undefined && delta['reasoning'] === undefined && delta['tool_calls'] === undefined) {
      return this.runs.push(content);
    }
    const parts: StreamPart[] = [];
    // llama-server `--reasoning-format deepseek` sends `reasoning_content`; vLLM/LM Studio/Ollama-/v1 send `reasoning`.
    const reasoning = str(delta['reasoning_content']) ?? str(delta['reasoning']);
    if (reasoning) {
      parts.push(...this.runs.closeRun());
      this.runs.serverSeparatedReasoning();
      if (this.native === undefined) {
        this.native = this.nextId();
        parts.push({ type: 'reasoning-start', id: this.native, origin: 'native' });
      }
      parts.push({ type: 'reasoning-delta', id: this.native, delta: reasoning });
    }
    if (content) {
      parts.push(...this.closeNative());
      parts.push(...this.runs.push(content));
    }
    const toolCalls = delta['tool_calls'];
    // Most chunks carry no tool calls: skip the fragment arrays for them.
    const fragments = Array.isArray(toolCalls) && toolCalls.length > 0 ? toolCalls.map(toFragment).filter((f): f is ToolFragment => f !== undefined) : NO_FRAGMENTS;
    if (fragments.length > 0) {
      parts.push(...this.closeNative(), ...this.runs.closeRun());
      for (const frag of fragments) parts.push(...this.calls.push(frag));
    }
    return parts;
  }

  private closeNative(): readonly StreamPart[] {
    if (this.native === undefined) return NO_PARTS;
    const id = this.native;
    this.native = undefined;
    return [{ type: 'reasoning-end', id }];
  }

  private fail(err: { message: string; code?: string }): StreamPart[] {
    this.errored = true;
    return [{ type: 'error', ...err }];
  }
}

const NO_PARTS: readonly StreamPart[] = Object.freeze([]);
/** Finish reasons that end the tool blocks still open as written (`function_call`: the pre-tools API's word). */
const CLOSES_CALLS = new Set(['tool_calls', 'function_call', 'stop']);
const NO_FRAGMENTS: readonly ToolFragment[] = Object.freeze([]);

/** The choice with index 0 (a missing index counts as 0): the one a chat shows. */
function firstChoice(choices: unknown): Rec | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (const c of choices) if (isRec(c) && (c['index'] ?? 0) === 0) return c;
  return undefined;
}

/**
 * Which hole of a template holds the content of a frame that means nothing else: for every frame the template
 * matches, `push` would only hand that string to `runs.push` (which does nothing with ''), as long as no native
 * reasoning run is open and the event is not named `error`; -1 when its frames can mean more. Worked out on the
 * template's value, which is every matching frame's value but for its hole strings: no `error`, `usage` or
 * `timings`; the first choice's delta has its content in a hole and no reasoning or tool calls; no finish reason.
 * Any other hole lies outside all that `push` reads (an `id` or `model` that varies).
 */
function plainContentHole(t: Template): number {
  const chunk = t.value;
  if (!isRec(chunk) || 'error' in chunk || isRec(chunk['timings']) || isRec(chunk['usage'])) return -1;
  const choices = chunk['choices'];
  const choice = firstChoice(choices);
  if (choice === undefined || str(choice['finish_reason'])) return -1;
  const delta = choice['delta'];
  if (!isRec(delta) || delta['reasoning_content'] !== undefined || delta['reasoning'] !== undefined || delta['tool_calls'] !== undefined) return -1;
  // The one hole allowed among what push reads: this choice's delta.content.
  return soleHole(
    t,
    ['error', 'timings', 'usage', 'choices'],
    (path) => path.length === 4 && Array.isArray(choices) && choices[path[1] as number] === choice && path[2] === 'delta' && path[3] === 'content',
  );
}

function toFragment(raw: unknown, position: number): ToolFragment | undefined {
  if (!isRec(raw)) return undefined;
  const fn = isRec(raw['function']) ? raw['function'] : {};
  // Non-streaming messages omit `index`: their position in the array is the index.
  const index = typeof raw['index'] === 'number' ? raw['index'] : position;
  const frag: ToolFragment = { index };
  const id = str(raw['id']);
  if (id !== undefined) frag.id = id;
  const name = str(fn['name']);
  if (name !== undefined) frag.name = name;
  const args = fn['arguments'];
  // Some servers send arguments as an object rather than a JSON string.
  if (typeof args === 'string') frag.arguments = args;
  else if (args !== undefined && args !== null) frag.arguments = JSON.stringify(args);
  return frag;
}
