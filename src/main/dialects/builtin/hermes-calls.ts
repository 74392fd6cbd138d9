import type { StreamPart } from '../../../shared/parts';
import type { ContentRuns } from '../../../shared/reasoning/content-runs';
import { ToolCallBlocks } from '../openai/tool-calls';
import type { ObservedBlock } from '../shared/derive-stop';
import type { ToolSchema } from '../types';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

/**
 * Tool calls in the text the built-in engine generates, in the Hermes form the chat templates it supports ask
 * for (Qwen 2.5/3, Hermes, the scripted models): `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`. The
 * same markup llama-server's parser reads for these templates.
 *
 * - Outside a call, text goes to the shared ContentRuns (the one reasoning splitter). A `<tool_call>` written
 *   inside a think block is reasoning, not a call (ContentRuns knows where the stream is).
 * - A call is an interleaving signal: the current run closes before it. Its body is handed to the shared
 *   ToolCallBlocks as one fragment and validated there when `</tool_call>` arrives (complete or invalid).
 * - A call whose close never comes fails as truncated at the end; whitespace between and after calls is dropped
 *   (templates put newlines there, they are not an answer).
 * - A tag split over chunks is held back until it can be told apart; never more than a tag's length.
 */
export class HermesCalls {
  private held = '';
  private call: string | null = null;
  private index = 0;
  private afterCall = false;
  private pendingWs = '';
  private readonly blocks: ToolCallBlocks;

  constructor(
    private readonly runs: ContentRuns,
    nextId: () => string,
    tools: readonly ToolSchema[] | undefined,
  ) {
    this.blocks = new ToolCallBlocks(nextId, tools);
  }

  push(text: string): StreamPart[] {
    const parts: StreamPart[] = [];
    let buf = this.held + text;
    this.held = '';
    for (;;) {
      if (this.call !== null) {
        const close = buf.indexOf(CLOSE);
        if (close < 0) {
          const hold = partialTail(buf, CLOSE);
          this.call += buf.slice(0, buf.length - hold);
          this.held = buf.slice(buf.length - hold);
          return parts;
        }
        this.call += buf.slice(0, close);
        buf = buf.slice(close + CLOSE.length);
        parts.push(...this.finishCall(this.call), ...this.blocks.closeAll());
        this.call = null;
        this.afterCall = true;
        continue;
      }
      const open = buf.indexOf(OPEN);
      const before = open < 0 ? buf.slice(0, buf.length - partialTail(buf, OPEN)) : buf.slice(0, open);
      parts.push(...this.text(before, open >= 0));
      if (open < 0) {
        this.held = buf.slice(before.length);
        return parts;
      }
      buf = buf.slice(open + OPEN.length);
      if (this.runs.insideReasoning) {
        parts.push(...this.runs.push(OPEN));
        continue;
      }
      parts.push(...this.runs.closeRun());
      this.call = '';
    }
  }

  /** End of stream: held bytes were text after all; an open call is truncated. */
  end(): { parts: StreamPart[]; openAtEnd: ObservedBlock[] } {
    const parts: StreamPart[] = [];
    if (this.call !== null) {
      parts.push(...this.finishCall(this.call + this.held));
      this.held = '';
      this.call = null;
      const cut = this.blocks.truncateOpen();
      parts.push(...cut.parts);
      return { parts, openAtEnd: cut.openAtEnd };
    }
    parts.push(...this.text(this.held, true));
    this.held = '';
    return { parts, openAtEnd: [] };
  }

  get observed(): readonly ObservedBlock[] {
    return this.blocks.observed;
  }

  /**
   * Text outside a call. After a call, whitespace is kept back until real text shows it belongs to an answer;
   * when another call or the end comes first (`callFollows`), it is dropped.
   */
  private text(text: string, callFollows: boolean): StreamPart[] {
    if (this.afterCall) {
      const all = this.pendingWs + text;
      if (all.trim() === '') {
        this.pendingWs = callFollows ? '' : all;
        return [];
      }
      this.afterCall = false;
      this.pendingWs = '';
      text = all.trimStart();
    }
    return text === '' ? [] : this.runs.push(text);
  }

  /** The call's body as the fragment ToolCallBlocks validates: the name, and the arguments as JSON text. */
  private finishCall(body: string): StreamPart[] {
    const { name, args } = readCall(body);
    const frag = { index: this.index++, name, arguments: args };
    return this.blocks.push(frag);
  }
}

/** How many trailing characters of `buf` could be the start of `tag`. */
function partialTail(buf: string, tag: string): number {
  const lt = buf.lastIndexOf('<');
  if (lt < 0 || buf.length - lt >= tag.length) return 0;
  return tag.startsWith(buf.slice(lt)) ? buf.length - lt : 0;
}

/**
 * `{"name": "x", "arguments": {...}}` -> name and argument text. A body that is not that JSON keeps what can be
 * read: the name by pattern, the arguments' raw text, so validation says exactly what was wrong.
 */
export function readCall(body: string): { name: string; args: string } {
  const text = body.trim();
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const o = parsed as Record<string, unknown>;
      const name = typeof o['name'] === 'string' ? o['name'] : '';
      const a = o['arguments'] ?? o['parameters'];
      const args = typeof a === 'string' ? a : a === undefined ? '{}' : JSON.stringify(a);
      return { name, args };
    }
  } catch {
    // fall through: read what can be read
  }
  const name = /"name"\s*:\s*"([^"]*)"/.exec(text)?.[1] ?? '';
  const at = /"(?:arguments|parameters)"\s*:\s*/.exec(text);
  let args = at ? text.slice(at.index + at[0].length) : text;
  // The call object's own closing brace is not part of the arguments.
  if (at && args.endsWith('}')) args = args.slice(0, -1).trimEnd();
  return { name, args };
}
