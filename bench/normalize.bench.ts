/**
 * Normalize throughput per dialect: a synthetic response through framing + dialect + splitter + reducer,
 * against the floor (framing plus JSON.parse of every frame, nothing else), in the same run.
 */
import { getDialect } from '../src/main/dialects/registry';
import type { DialectId } from '../src/main/dialects/types';
import { normalizeBatches } from '../src/main/engine/normalize-stream';
import { frameEventBatches } from '../src/main/leg/framing';
import { createTurnReducer } from '../src/shared/reducer';
import type { Turn } from '../src/shared/turn';
import { quick, report } from './lib/report';
import { asAsync, chunks, syntheticResponse } from './lib/synthetic-wire';

const TOKENS = quick ? 50_000 : 1_000_000;
const emptyTurn = (): Turn => ({ id: 't', conversationId: 'c', parentId: null, role: 'assistant', blocks: [], meta: {}, status: 'streaming', createdAt: 0 });

async function floor(dialect: DialectId, bytes: Uint8Array): Promise<number> {
  const start = performance.now();
  let n = 0;
  for await (const batch of frameEventBatches(asAsync(chunks(bytes)), getDialect(dialect).framing)) {
    for (const ev of batch) if (ev.data !== '[DONE]') n += JSON.parse(ev.data) ? 1 : 0;
  }
  if (n === 0) throw new Error('floor parsed nothing');
  return performance.now() - start;
}

async function full(dialect: DialectId, bytes: Uint8Array): Promise<{ ms: number; turn: Turn }> {
  const start = performance.now();
  const reducer = createTurnReducer(emptyTurn());
  for await (const parts of normalizeBatches(asAsync(chunks(bytes)), getDialect(dialect))) reducer.applyAll(parts);
  return { ms: performance.now() - start, turn: reducer.turn };
}

for (const dialect of ['ollama', 'openai', 'anthropic'] as const) {
  const { body, tokens } = syntheticResponse(dialect, TOKENS);
  const bytes = new TextEncoder().encode(body);
  // Warm up both paths on a small slice so the JIT has seen them, then take the best of a few runs.
  const warm = new TextEncoder().encode(syntheticResponse(dialect, 5_000).body);
  await floor(dialect, warm);
  await full(dialect, warm);
  const runs = quick ? 2 : 3;
  let floorMs = Infinity;
  let fullMs = Infinity;
  let turn: Turn | undefined;
  for (let i = 0; i < runs; i++) {
    floorMs = Math.min(floorMs, await floor(dialect, bytes));
    const r = await full(dialect, bytes);
    fullMs = Math.min(fullMs, r.ms);
    turn = r.turn;
  }
  if (turn?.stop !== 'tool_use') throw new Error(`${dialect}: the synthetic stream did not end in tool_use (${turn?.stop})`);
  const rate = tokens / (fullMs / 1000);
  const ratio = fullMs / floorMs;
  report({
    figure: `normalize ${dialect} (${(tokens / 1e6).toFixed(2)}M tokens, ${(bytes.length / 1e6).toFixed(0)} MB)`,
    value: Math.round(rate),
    unit: 'tokens/s',
    floor: Math.round(tokens / (floorMs / 1000)),
    ratio: Number(ratio.toFixed(2)),
    goal: '>= 1,000,000 tokens/s and <= 1.5x floor time',
    met: rate >= 1_000_000 && ratio <= 1.5,
  });
}
