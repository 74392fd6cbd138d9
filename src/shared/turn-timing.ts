import type { JsonObject, JsonValue } from './json';
import type { StreamPart } from './parts';
import type { Turn } from './turn';

/**
 * When an answer's first token came and how long each reasoning run took, measured by main while it streamed and
 * kept in the turn's meta, so "first token" and "Thought for N s" still read right after a reload.
 *
 * A figure belongs to its reasoning block by the block's place among the turn's reasoning blocks, every one counted:
 * redacted, empty or not. While the answer streams, each `reasoning-start` opens one reasoning block (reducer.ts) and
 * one run here, so the places match; the one step that removes reasoning blocks, the drain at `finish` (blank inline
 * runs, reasoning/trim.ts), removes their figures with them (`keepReasoningFigures`). Before, the figures were only
 * those of the runs with text, matched to the panels by place: a redacted block, or a blank `<think>` block the drain
 * dropped, moved every later panel onto another run's figure.
 */
export interface TurnTimingMeta {
  ttftMs?: number;
  /**
   * One entry per reasoning block of the turn, in order: how long its run took, or null where main has no figure for
   * it (no text: redacted or empty; not ended yet). Entries past the end are runs with no figure yet.
   */
  reasoningBlockMs: (number | null)[];
  /**
   * The whole answer's tokens so far (its earlier steps too) as main counted them from the chunks streamed
   * (main/engine/chunk-count.ts), and this step's speed by that count: the running figures while it streams, and
   * what a stopped answer, which the server sent no count for, keeps after a reload. Absent where main counted none.
   */
  tokens?: number;
  tokensPerSecond?: number;
}

/** How often main sends its running count to the pages: a few times a second, with a batch it sends anyway. */
export const COUNT_INTERVAL_MS = 250;
/** The span a speed is measured over at least: below it, a count of a few tokens would make a wild speed. */
export const MIN_SPEED_SPAN_MS = 400;

/**
 * Folds streamed parts into timing, at the moments the caller observes them. Main sends the figures to the pages as
 * it learns them (a `timing` part, run-step.ts), and saves the same figures with the answer, so the page shows one
 * number for each, live, once the answer ends and after a reload.
 */
export class StreamClock {
  private firstTokenAt: number | undefined;
  /** One per reasoning block the reducer opens for these parts, in the same order. */
  private readonly runs: { start: number; end?: number; hasText: boolean }[] = [];
  /** The running count (ChunkCount's): the latest, the one last sent, and when; where this step's first came. */
  private count: { tokens: number; sent: number | undefined; sentAt: number; first?: { at: number; tokens: number }; speed?: number } | undefined;

  constructor(private readonly sentAt: number) {}

  /**
   * True where `parts` made a figure known: the first token came, or a reasoning run with text ended. Once per
   * figure, so the caller sends the figures a few times an answer, never per token.
   */
  observe(parts: readonly StreamPart[], at: number): boolean {
    let learned = false;
    for (const part of parts) {
      if (part.type === 'reasoning-start') this.runs.push({ start: at, hasText: false });
      // A delta with no run before it opens a block in the reducer (it keeps the bytes): a run here too.
      if (part.type === 'reasoning-delta' && this.runs.length === 0) this.runs.push({ start: at, hasText: false });
      const open = this.runs.at(-1);
      if ((part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-call-start') && this.firstTokenAt === undefined) {
        this.firstTokenAt = at;
        learned = true;
      }
      // Blank reasoning is no text: a `<think>` block of whitespace is dropped at the drain, and says nothing anyway.
      if (part.type === 'reasoning-delta' && open && open.end === undefined && /\S/.test(part.delta)) open.hasText = true;
      if (open && open.end === undefined && (part.type === 'reasoning-end' || part.type === 'text-start' || part.type === 'tool-call-start' || part.type === 'finish')) {
        open.end = at;
        if (open.hasText) learned = true;
      }
    }
    return learned;
  }

  /**
   * `parts` as they go to the reducer and the pages: with a `timing` part where they made a figure known, before the
   * answer's finish, never after it: the figures go by the places of the reasoning blocks as they streamed, which the
   * drain at the finish changes (and moves the figures with them: reducer.ts).
   */
  stamp(parts: StreamPart[], at: number, tokens?: number): StreamPart[] {
    const learned = this.observe(parts, at);
    if (!this.counted(parts, at, tokens) && !learned) return parts;
    const timing: StreamPart = { type: 'timing', timing: this.figures() };
    const finish = parts.findIndex((p) => p.type === 'finish');
    return finish < 0 ? [...parts, timing] : [...parts.slice(0, finish), timing, ...parts.slice(finish)];
  }

  /**
   * Takes the running count; true where it is due to the pages: it changed and was last sent COUNT_INTERVAL_MS ago
   * or more, or the answer ends (its last count is saved with it). Not per token: a few times a second.
   */
  private counted(parts: readonly StreamPart[], at: number, tokens: number | undefined): boolean {
    if (tokens === undefined) return false;
    const c = (this.count ??= { tokens, sent: undefined, sentAt: -Infinity });
    if (tokens !== c.tokens) {
      c.tokens = tokens;
      // The speed is this step's: from the first chunk it counted, so the wait for it is not in it (as the server's).
      if (c.first === undefined) c.first = { at, tokens };
      else if (at - c.first.at >= MIN_SPEED_SPAN_MS) c.speed = (tokens - c.first.tokens) / ((at - c.first.at) / 1000);
    }
    if (c.tokens === c.sent || c.tokens === 0) return false;
    if (at - c.sentAt < COUNT_INTERVAL_MS && !parts.some((p) => p.type === 'finish')) return false;
    c.sent = c.tokens;
    c.sentAt = at;
    return true;
  }

  /**
   * In how many ms a count held back (it came within COUNT_INTERVAL_MS of the last one sent) is due, or undefined
   * where none is held: a stream that pauses (a slow model, a tool call being written) still shows where it got to.
   */
  countDueIn(at: number): number | undefined {
    const c = this.count;
    if (!c || c.tokens === c.sent || c.tokens === 0) return undefined;
    return Math.min(COUNT_INTERVAL_MS, Math.max(0, COUNT_INTERVAL_MS - (at - c.sentAt)));
  }

  /** The figures known so far: one entry per run, null for a run with no text or not ended. */
  figures(): TurnTimingMeta {
    const out: TurnTimingMeta = {
      reasoningBlockMs: this.runs.map((r) => (r.hasText && r.end !== undefined ? r.end - r.start : null)),
    };
    if (this.firstTokenAt !== undefined) out.ttftMs = this.firstTokenAt - this.sentAt;
    if (this.count && this.count.tokens > 0) {
      out.tokens = this.count.tokens;
      if (this.count.speed !== undefined) out.tokensPerSecond = this.count.speed;
    }
    return out;
  }

  toMeta(): JsonObject {
    return timingJson(this.figures());
  }
}

/** The figures as kept in `turn.meta.timing`: by main as it saves the answer, and by the reducer as they stream. */
export function timingJson(timing: TurnTimingMeta): JsonObject {
  const meta: JsonObject = { reasoningBlockMs: [...timing.reasoningBlockMs] };
  if (timing.ttftMs !== undefined) meta['ttftMs'] = timing.ttftMs;
  if (timing.tokens !== undefined) meta['tokens'] = timing.tokens;
  if (timing.tokensPerSecond !== undefined) meta['tokensPerSecond'] = timing.tokensPerSecond;
  return meta;
}

/**
 * Reads the timing main stored in `turn.meta.timing`; tolerant of rows written before it existed, and of rows
 * written while it kept `reasoningMs`: the figures of the runs with text only, in order. Those are given, in order,
 * to the reasoning blocks with text, which is what those runs became (a redacted block has none); a blank `<think>`
 * block the drain dropped had one too, which cannot be told now, so such an old row may still be off by one.
 */
export function turnTimingMeta(turn: Pick<Turn, 'meta' | 'blocks'>): TurnTimingMeta {
  const raw = turn.meta['timing'];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { reasoningBlockMs: [] };
  const out: TurnTimingMeta = { reasoningBlockMs: [] };
  const byBlock = raw['reasoningBlockMs'];
  const legacy = raw['reasoningMs'];
  if (Array.isArray(byBlock)) out.reasoningBlockMs = byBlock.map(figure);
  else if (Array.isArray(legacy)) {
    const figures = legacy.filter((v): v is number => typeof v === 'number');
    let next = 0;
    for (const block of turn.blocks) {
      if (block.type !== 'reasoning') continue;
      out.reasoningBlockMs.push(block.text !== '' && next < figures.length ? figures[next++]! : null);
    }
  }
  if (typeof raw['ttftMs'] === 'number') out.ttftMs = raw['ttftMs'];
  if (typeof raw['tokens'] === 'number') out.tokens = raw['tokens'];
  if (typeof raw['tokensPerSecond'] === 'number') out.tokensPerSecond = raw['tokensPerSecond'];
  return out;
}

function figure(v: JsonValue): number | null {
  return typeof v === 'number' ? v : null;
}

/** Each reasoning block's figure, in the order of the turn's reasoning blocks: what its panel says it took. */
export function reasoningPanelMs(turn: Pick<Turn, 'meta' | 'blocks'>): (number | undefined)[] {
  const figures = turnTimingMeta(turn).reasoningBlockMs;
  const out: (number | undefined)[] = [];
  for (const block of turn.blocks) if (block.type === 'reasoning') out.push(figures[out.length] ?? undefined);
  return out;
}

/**
 * The meta after the drain removed reasoning blocks: `kept` says, for each reasoning block before it, in order,
 * whether it stayed. The figures of the removed ones go with them, so the rest stay on their own blocks.
 */
export function keepReasoningFigures(meta: JsonObject, kept: readonly boolean[]): JsonObject {
  const raw = meta['timing'];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return meta;
  const byBlock = raw['reasoningBlockMs'];
  if (!Array.isArray(byBlock) || kept.every(Boolean)) return meta;
  const reasoningBlockMs = byBlock.filter((_, i) => kept[i] ?? true);
  return { ...meta, timing: { ...raw, reasoningBlockMs } };
}
