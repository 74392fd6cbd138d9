// The app's real path for a response: bytes -> normalizeStream (framing + dialect parser) -> reducer -> drain.
import type { Dialect, ParserOptions } from '../../../../src/main/dialects/types';
import { normalizeStream } from '../../../../src/main/engine/normalize-stream';
import type { StreamPart } from '../../../../src/shared/parts';
import { turnOutput, type TurnOutput } from '../../../../src/shared/reasoning/drain';
import { createTurnReducer } from '../../../../src/shared/reducer';
import type { ToolCallBlock, Turn } from '../../../../src/shared/turn';

async function* source(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

export interface PipelineResult {
  turn: Turn;
  output: TurnOutput;
  calls: ToolCallBlock[];
  parts: StreamPart[];
}

export async function runPipeline(dialect: Dialect, chunks: Uint8Array[], options?: ParserOptions): Promise<PipelineResult> {
  const reducer = createTurnReducer({
    id: 'a1',
    conversationId: 'c1',
    parentId: 'u1',
    role: 'assistant',
    blocks: [],
    meta: {},
    status: 'streaming',
    createdAt: 0,
  });
  const parts: StreamPart[] = [];
  for await (const part of normalizeStream(source(chunks), dialect, options)) {
    parts.push(part);
    reducer.apply(part);
  }
  const turn = reducer.turn;
  return { turn, output: turnOutput(turn), calls: turn.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call'), parts };
}
