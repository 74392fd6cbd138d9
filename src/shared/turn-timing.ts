import type { JsonObject } from './json';
import type { StreamPart } from './parts';
import type { Turn } from './turn';

/**
 * When an answer's first token came and how long each reasoning run took, measured by main while it streamed and
 * kept in the turn's meta, so "first token" and "Thought for N s" still read right after a reload.
 */
export interface TurnTimingMeta {
  ttftMs?: number;
  /** One entry per non-empty reasoning run, in stream order. */
  reasoningMs: number[];
}

/** Folds streamed parts into timing, at the moments the caller observes them. */
export class StreamClock {
  private firstTokenAt: number | undefined;
  private readonly runs: { start: number; end?: number; hasText: boolean }[] = [];

  constructor(private readonly sentAt: number) {}

  observe(parts: readonly StreamPart[], at: number): void {
    for (const part of parts) {
      const open = this.runs.at(-1);
      if (part.type === 'reasoning-start') this.runs.push({ start: at, hasText: false });
      if (part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-call-start') this.firstTokenAt ??= at;
      if (part.type === 'reasoning-delta' && open && open.end === undefined) open.hasText = true;
      if (open && open.end === undefined && (part.type === 'reasoning-end' || part.type === 'text-start' || part.type === 'tool-call-start' || part.type === 'finish')) {
        open.end = at;
      }
    }
  }

  toMeta(): JsonObject {
    const meta: JsonObject = {
      // Empty think blocks are dropped from the turn at the drain, so they take no entry here either.
      reasoningMs: this.runs.filter((r) => r.hasText && r.end !== undefined).map((r) => (r.end ?? r.start) - r.start),
    };
    if (this.firstTokenAt !== undefined) meta['ttftMs'] = this.firstTokenAt - this.sentAt;
    return meta;
  }
}

/** Reads the timing main stored in `turn.meta.timing`; tolerant of rows written before it existed. */
export function turnTimingMeta(turn: Pick<Turn, 'meta'>): TurnTimingMeta {
  const raw = turn.meta['timing'];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { reasoningMs: [] };
  const out: TurnTimingMeta = {
    reasoningMs: Array.isArray(raw['reasoningMs']) ? raw['reasoningMs'].filter((v): v is number => typeof v === 'number') : [],
  };
  if (typeof raw['ttftMs'] === 'number') out.ttftMs = raw['ttftMs'];
  return out;
}
