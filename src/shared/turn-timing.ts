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

/**
 * Folds streamed parts into timing, at the moments the caller observes them. Main sends the figures to the pages as
 * it learns them (a `timing` part, run-step.ts), and saves the same figures with the answer, so the page shows one
 * number for each, live, once the answer ends and after a reload.
 */
export class StreamClock {
  private firstTokenAt: number | undefined;
  private readonly runs: { start: number; end?: number; hasText: boolean }[] = [];

  constructor(private readonly sentAt: number) {}

  /**
   * True where `parts` made a figure known: the first token came, or a reasoning run with text ended. Once per
   * figure, so the caller sends the figures a few times an answer, never per token.
   */
  observe(parts: readonly StreamPart[], at: number): boolean {
    let learned = false;
    for (const part of parts) {
      const open = this.runs.at(-1);
      if (part.type === 'reasoning-start') this.runs.push({ start: at, hasText: false });
      if ((part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-call-start') && this.firstTokenAt === undefined) {
        this.firstTokenAt = at;
        learned = true;
      }
      if (part.type === 'reasoning-delta' && open && open.end === undefined) open.hasText = true;
      if (open && open.end === undefined && (part.type === 'reasoning-end' || part.type === 'text-start' || part.type === 'tool-call-start' || part.type === 'finish')) {
        open.end = at;
        if (open.hasText) learned = true;
      }
    }
    return learned;
  }

  /** The figures known so far: those of the runs that ended. */
  figures(): TurnTimingMeta {
    const out: TurnTimingMeta = {
      // Empty think blocks are dropped from the turn at the drain, so they take no entry here either.
      reasoningMs: this.runs.filter((r) => r.hasText && r.end !== undefined).map((r) => (r.end ?? r.start) - r.start),
    };
    if (this.firstTokenAt !== undefined) out.ttftMs = this.firstTokenAt - this.sentAt;
    return out;
  }

  toMeta(): JsonObject {
    return timingJson(this.figures());
  }
}

/** The figures as kept in `turn.meta.timing`: by main as it saves the answer, and by the reducer as they stream. */
export function timingJson(timing: TurnTimingMeta): JsonObject {
  const meta: JsonObject = { reasoningMs: [...timing.reasoningMs] };
  if (timing.ttftMs !== undefined) meta['ttftMs'] = timing.ttftMs;
  return meta;
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
