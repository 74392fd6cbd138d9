import type { StreamPart } from '../../../shared/parts';
import { cutOffCallError } from '../../../shared/turn';
import type { ObservedBlock } from '../shared/derive-stop';
import { validateToolCall } from '../shared/tool-args';
import type { ToolSchema } from '../types';

interface OpenCall {
  partId: string;
  name: string;
  raw: string;
}

export interface ToolFragment {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

/**
 * OpenAI-shaped tool calls arrive as fragments keyed by `index`: the first carries `id`, `type` and the name,
 * later ones only argument text. Arguments are concatenated and parsed only when the block closes: when a later
 * index starts, or at the end of a stream whose `finish_reason` was `tool_calls`/`stop` (DESIGN.md §3; the parser
 * decides). Blocks still open at the end of any other stream fail as truncated.
 */
export class ToolCallBlocks {
  private readonly open = new Map<number, OpenCall>();
  private readonly closed = new Set<number>();
  private readonly verdicts: ObservedBlock[] = [];
  private made = 0;

  constructor(
    private readonly nextId: () => string,
    private readonly tools: readonly ToolSchema[] | undefined,
  ) {}

  get anyOpen(): boolean {
    return this.open.size > 0;
  }

  push(frag: ToolFragment): StreamPart[] {
    const parts: StreamPart[] = [];
    // A fragment for a block we already closed cannot be trusted to belong to it: dropped.
    if (this.closed.has(frag.index)) return parts;
    let call = this.open.get(frag.index);
    if (!call) {
      // A new index closes every earlier one that is still open.
      for (const index of [...this.open.keys()]) if (index < frag.index) parts.push(...this.close(index));
      call = { partId: this.nextId(), name: frag.name ?? '', raw: '' };
      this.open.set(frag.index, call);
      const toolCallId = frag.id && frag.id !== '' ? frag.id : `call_${this.made}`;
      this.made += 1;
      parts.push({ type: 'tool-call-start', id: call.partId, toolCallId, name: call.name });
    }
    if (frag.arguments) {
      call.raw += frag.arguments;
      parts.push({ type: 'tool-call-delta', id: call.partId, delta: frag.arguments });
    }
    return parts;
  }

  /** Closes every open block: parse + validate each (complete | invalid). */
  closeAll(): StreamPart[] {
    const parts: StreamPart[] = [];
    for (const index of [...this.open.keys()].sort((a, b) => a - b)) parts.push(...this.close(index));
    return parts;
  }

  /** End of stream: blocks the wire never closed fail as truncated. Returns their parts and observed states. */
  truncateOpen(): { parts: StreamPart[]; openAtEnd: ObservedBlock[] } {
    const parts: StreamPart[] = [];
    const openAtEnd: ObservedBlock[] = [];
    for (const [index, call] of [...this.open.entries()].sort((a, b) => a[0] - b[0])) {
      parts.push({ type: 'tool-call-end', id: call.partId, state: 'truncated', error: cutOffCallError(call.name) });
      openAtEnd.push({ kind: 'tool_call', state: 'open' });
      this.open.delete(index);
      this.closed.add(index);
    }
    return { parts, openAtEnd };
  }

  get observed(): readonly ObservedBlock[] {
    return this.verdicts;
  }

  private close(index: number): StreamPart[] {
    const call = this.open.get(index);
    if (!call) return [];
    this.open.delete(index);
    this.closed.add(index);
    const result = validateToolCall(call.name, call.raw, this.tools);
    this.verdicts.push({ kind: 'tool_call', state: result.ok ? 'complete' : 'invalid' });
    return result.ok
      ? [{ type: 'tool-call-end', id: call.partId, state: 'complete', arguments: result.value }]
      : [{ type: 'tool-call-end', id: call.partId, state: 'invalid', error: result.error }];
  }
}
