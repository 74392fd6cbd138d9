import type { StreamPart } from '../../../shared/parts';
import { ContentRuns } from '../../../shared/reasoning/content-runs';
import type { Usage } from '../../../shared/turn';
import type { EngineEvent } from '../../builtin/protocol';
import { deriveStop, type ObservedBlock } from '../shared/derive-stop';
import type { ParserOptions, WireEvent, WireParser } from '../types';
import { HermesCalls } from './hermes-calls';

/**
 * The built-in engine's events (src/main/builtin/protocol.ts, one JSON line each) -> canonical parts.
 *
 * The engine reports the generated text verbatim and why generation ended; everything else is decided here by
 * the shared pieces, as for any wire: reasoning by the one splitter (inline `<think>`, `thinkOpen` when the
 * rendered prompt ended inside a think block), tool calls by HermesCalls + the shared argument validation, the
 * stop by the shared deriveStop. The engine's reasons map to wire reasons as llama-server states them:
 * `eog` -> `stop`, the token limit and a full context -> `length`.
 */
export class BuiltinParser implements WireParser {
  private n = 0;
  private readonly nextId = (): string => `p${this.n++}`;
  private readonly runs: ContentRuns;
  private readonly calls: HermesCalls;
  private wireReason: string | null = null;
  private sawTerminal = false;
  private errored = false;
  private usage: Usage | undefined;
  private cachedTokens = 0;
  private ended = false;

  constructor(options: ParserOptions = {}) {
    this.runs = new ContentRuns({ nextId: this.nextId, startInside: options.thinkOpen ?? false });
    this.calls = new HermesCalls(this.runs, this.nextId, options.tools);
  }

  push(event: WireEvent): StreamPart[] {
    if (this.ended || this.errored || this.sawTerminal) return [];
    let e: EngineEvent;
    try {
      e = JSON.parse(event.data) as EngineEvent;
    } catch {
      return [];
    }
    switch (e.type) {
      case 'start':
        if (typeof e.cachedTokens === 'number') this.cachedTokens = e.cachedTokens;
        return [];
      case 'text':
        return typeof e.text === 'string' ? this.calls.push(e.text) : [];
      case 'done':
        this.sawTerminal = true;
        // The engine knows a full window from a token limit (llama-server says `length` for both), and the user's
        // way on differs: a larger window or room made, not a higher limit. `context_full` passes through deriveStop.
        this.wireReason = e.reason === 'eog' ? 'stop' : e.reason === 'abort' ? 'abort' : e.reason === 'context-full' ? 'context_full' : 'length';
        this.usage = {
          inputTokens: e.promptTokens,
          outputTokens: e.completionTokens,
          ...(this.cachedTokens > 0 ? { cachedTokens: this.cachedTokens } : {}),
          promptMs: e.promptMs,
          generationMs: e.generationMs,
        };
        return [];
      case 'error':
        this.errored = true;
        // Its own reason where it gave one; a blank one said nothing after the connection's name.
        return [{ type: 'error', message: typeof e.message === 'string' && e.message.trim() !== '' ? e.message : 'The built-in engine failed without saying why.' }];
      default:
        return [];
    }
  }

  end(): StreamPart[] {
    if (this.ended) return [];
    this.ended = true;
    const { parts, openAtEnd } = this.calls.end();
    parts.push(...this.runs.closeRun());
    const blocks: ObservedBlock[] = [...this.calls.observed, ...openAtEnd];
    const stop = deriveStop({ wireReason: this.wireReason, sawTerminal: this.sawTerminal, errored: this.errored, blocks });
    if (this.usage) {
      parts.push({ type: 'usage', usage: this.usage });
      parts.push({ type: 'finish', wireReason: this.wireReason, stop, usage: this.usage });
    } else parts.push({ type: 'finish', wireReason: this.wireReason, stop });
    return parts;
  }
}
