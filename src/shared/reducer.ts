import { assertNever } from './json';
import type { StreamPart } from './parts';
import { drainEdges } from './reasoning/trim';
import { keepReasoningFigures, timingJson } from './turn-timing';
import { type Block, type DerivedStop, type Turn, type TurnStatus, type Usage } from './turn';

/**
 * Folds canonical stream parts into a Turn (DESIGN.md §3–§5). Pure in the Turn: every change returns a new Turn
 * with a new `blocks` array in which only the changed block is replaced, so React/zustand see the change and
 * untouched blocks keep their identity.
 *
 * Finding a run's block: blocks carry no run id (the Turn is the stored/IPC record and stays free of stream
 * bookkeeping), so the part id → block index map lives beside the Turn, with whoever folds the stream:
 * `createTurnReducer` keeps one, `applyParts` makes one per call, and `applyPart` takes one optionally. A part
 * whose id the map does not know (no map, or its start came in an earlier batch) targets the LAST block of its
 * kind, which is exact as long as runs of one kind do not interleave — and no dialect interleaves them.
 */

/** Part id → index in `turn.blocks` of the block that run writes into. Updated in place by `applyPart`. */
export type RunIndex = Map<string, number>;

export function applyPart(turn: Turn, part: StreamPart, runs?: RunIndex): Turn {
  switch (part.type) {
    case 'text-start':
      return append(turn, { type: 'text', text: '' }, part.id, runs);
    case 'reasoning-start':
      return append(turn, { type: 'reasoning', text: '', origin: part.origin }, part.id, runs);
    case 'text-delta':
    case 'reasoning-delta': {
      const kind = part.type === 'text-delta' ? 'text' : 'reasoning';
      const i = find(turn, part.id, kind, runs);
      if (i < 0) {
        // A delta without its start breaks the protocol; keep the bytes rather than drop them.
        const block: Block = kind === 'text' ? { type: 'text', text: part.delta } : { type: 'reasoning', text: part.delta, origin: 'native' };
        return append(turn, block, part.id, runs);
      }
      return update(turn, i, (block) => (block.type === kind ? { ...block, text: block.text + part.delta } : block));
    }
    case 'reasoning-end': {
      if (part.signature === undefined && part.redacted === undefined) return turn;
      const sealed = { ...(part.signature !== undefined ? { signature: part.signature } : {}), ...(part.redacted !== undefined ? { redacted: part.redacted } : {}) };
      return update(turn, find(turn, part.id, 'reasoning', runs), (block) => (block.type === 'reasoning' ? { ...block, ...sealed } : block));
    }
    case 'text-end':
      // A run's end changes nothing in the record: the next start opens a new block anyway.
      return turn;
    case 'tool-call-start':
      return append(turn, { type: 'tool_call', id: part.toolCallId, name: part.name, state: 'streaming', argumentsRaw: '' }, part.id, runs);
    case 'tool-call-delta':
      return update(turn, find(turn, part.id, 'tool_call', runs), (block) =>
        block.type === 'tool_call' ? { ...block, argumentsRaw: block.argumentsRaw + part.delta } : block,
      );
    case 'tool-call-end':
      return update(turn, find(turn, part.id, 'tool_call', runs), (block) => {
        if (block.type !== 'tool_call') return block;
        const { arguments: _args, error: _error, ...rest } = block;
        return part.state === 'complete'
          ? { ...rest, state: 'complete', arguments: part.arguments }
          : { ...rest, state: part.state, error: part.error };
      });
    case 'usage':
      return { ...turn, usage: mergeUsage(turn.usage, part.usage) };
    case 'error':
      return { ...turn, error: part.message };
    case 'finish': {
      runs?.clear(); // the drain trim below may drop blocks, so indices end here
      const usage = part.usage === undefined ? turn.usage : mergeUsage(turn.usage, part.usage);
      const finished: Turn = { ...turn, stop: part.stop, wireReason: part.wireReason, status: statusOf(part.stop) };
      if (usage !== undefined) finished.usage = usage;
      const settled = settleOpenCalls(finished.blocks, part.stop);
      const drained = drainEdges(settled);
      // A reasoning block's timing goes by its place among the reasoning blocks: those the drain drops take theirs.
      const keptReasoning = settled.flatMap((block, i) => (block.type === 'reasoning' ? [drained.kept[i] ?? true] : []));
      return { ...finished, meta: keepReasoningFigures(finished.meta, keptReasoning), blocks: drained.blocks };
    }
    case 'timing':
      return { ...turn, meta: { ...turn.meta, timing: timingJson(part.timing) } };
    default:
      return assertNever(part, 'stream part');
  }
}

export function applyParts(turn: Turn, parts: readonly StreamPart[], runs: RunIndex = new Map()): Turn {
  let out = turn;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-call-delta') {
      // Consecutive deltas of one run fold into one: same result, one copy of the Turn instead of one per token.
      // They are joined into one flat string rather than added one by one: `a += b` per token leaves a rope of
      // one node per token in the block's text, which outlives the young generation and makes the collector
      // copy a million nodes on a long answer (bench/normalize: a fifth of the reducer's time).
      let end = i + 1;
      for (let next = parts[end]; next !== undefined && next.type === part.type && next.id === part.id; next = parts[++end]);
      if (end === i + 1) {
        out = applyPart(out, part, runs);
      } else {
        const pieces: string[] = new Array<string>(end - i);
        for (let k = i; k < end; k++) pieces[k - i] = (parts[k] as { delta: string }).delta;
        out = applyPart(out, { ...part, delta: pieces.join('') }, runs);
        i = end - 1;
      }
    } else {
      out = applyPart(out, part, runs);
    }
  }
  return out;
}

export interface TurnReducer {
  /** The latest Turn; a new object after every change. */
  readonly turn: Turn;
  apply(part: StreamPart): Turn;
  applyAll(parts: readonly StreamPart[]): Turn;
}

/** Folds one response's parts into `initial`, keeping the run index across calls. */
export function createTurnReducer(initial: Turn): TurnReducer {
  let turn = initial;
  const runs: RunIndex = new Map();
  return {
    get turn() {
      return turn;
    },
    apply(part) {
      turn = applyPart(turn, part, runs);
      return turn;
    },
    applyAll(parts) {
      turn = applyParts(turn, parts, runs);
      return turn;
    },
  };
}

/** The stop decides the status: only error, cut and aborted are failures; every other stop is a done turn. */
export function statusOf(stop: DerivedStop): TurnStatus {
  // `DerivedStop` admits any string, so the comparison cannot narrow it: map each failure stop explicitly.
  if (stop === 'error') return 'error';
  if (stop === 'cut') return 'cut';
  if (stop === 'aborted') return 'aborted';
  return 'done';
}

/** Later reports win field by field; a field a report leaves out keeps its earlier value. */
export function mergeUsage(base: Usage | undefined, next: Usage): Usage {
  const out: Usage = { ...base };
  for (const [key, value] of Object.entries(next) as [keyof Usage, number | undefined][]) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}


function append(turn: Turn, block: Block, id: string, runs: RunIndex | undefined): Turn {
  runs?.set(id, turn.blocks.length);
  return { ...turn, blocks: [...turn.blocks, block] };
}

function find(turn: Turn, id: string, type: Block['type'], runs: RunIndex | undefined): number {
  const known = runs?.get(id);
  if (known !== undefined && turn.blocks[known]?.type === type) return known;
  for (let i = turn.blocks.length - 1; i >= 0; i--) if (turn.blocks[i]?.type === type) return i;
  return -1;
}

/** Replaces block `i` when `change` returns a different block; an unknown index (no such run) is a no-op. */
function update(turn: Turn, i: number, change: (block: Block) => Block): Turn {
  const block = turn.blocks[i];
  if (block === undefined) return turn;
  const next = change(block);
  if (next === block) return turn;
  const blocks = turn.blocks.slice();
  blocks[i] = next;
  return { ...turn, blocks };
}

/**
 * A finished turn has no call still being written: one the stream left open (a stop, a cut, a server that ended
 * mid-call) ends truncated and is never run, so no card says "Writing the call…" forever (issue 13).
 */
export function settleOpenCalls(blocks: Block[], stop: DerivedStop | 'interrupted'): Block[] {
  if (!blocks.some((b) => b.type === 'tool_call' && b.state === 'streaming')) return blocks;
  const why =
    stop === 'aborted'
      ? 'Stopped before this call was complete; it was not run.'
      : stop === 'interrupted'
        ? 'Firebrand closed before this call was complete; it was not run.'
        : 'The answer ended before this call was complete; it was not run.';
  return blocks.map((b) => (b.type === 'tool_call' && b.state === 'streaming' ? { ...b, state: 'truncated', error: why } : b));
}
