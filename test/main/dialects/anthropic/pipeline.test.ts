import { describe, it, expect } from 'vitest';
import { anthropicDialect } from '../../../../src/main/dialects/anthropic';
import type { ParserOptions, ToolSchema } from '../../../../src/main/dialects/types';
import type { ToolCallBlock, TurnStatus, Usage } from '../../../../src/shared/turn';
import { chunkings, fixture } from '../ollama/replay';
import { runPipeline } from '../ollama/pipeline';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['location'],
  },
};
const tools = { tools: [weather] };

interface Want {
  file: string;
  options?: ParserOptions;
  content: string;
  reasoning?: string;
  calls?: Array<Partial<ToolCallBlock>>;
  error?: string;
  wireReason: string | null;
  stop: string;
  status: TurnStatus;
  usage?: Usage;
}

const wants: Want[] = [
  { file: 'plain-text.sse', content: 'Hello! How can I help?', wireReason: 'end_turn', stop: 'end_turn', status: 'done', usage: { inputTokens: 25, outputTokens: 15 } },
  { file: 'thinking-text.sse', content: '27 × 453 = 12,231', reasoning: 'The user asks 27 * 453. 27 * 453 = 12231.', wireReason: 'end_turn', stop: 'end_turn', status: 'done' },
  { file: 'tool-use-fragments.sse', options: tools, content: 'Okay, let me check the weather in San Francisco.', calls: [{ id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', state: 'complete', arguments: { location: 'San Francisco, CA', unit: 'fahrenheit' } }], wireReason: 'tool_use', stop: 'tool_use', status: 'done', usage: { inputTokens: 472, outputTokens: 89 } },
  { file: 'two-tool-use.sse', options: tools, content: '', calls: [{ id: 'toolu_01A', state: 'complete' }, { id: 'toolu_01B', state: 'complete' }], wireReason: 'tool_use', stop: 'tool_use', status: 'done' },
  { file: 'max-tokens-in-tool-use.sse', options: tools, content: '', calls: [{ id: 'toolu_01Cut', state: 'truncated', argumentsRaw: '{"location": "San Fr' }], wireReason: 'max_tokens', stop: 'max_tokens', status: 'done' },
  { file: 'max-tokens-in-tool-use-closed.sse', options: tools, content: 'Checking.', calls: [{ id: 'toolu_01Cut2', state: 'truncated' }], wireReason: 'max_tokens', stop: 'max_tokens', status: 'done' },
  { file: 'error-mid-stream.sse', content: 'Partial ans', error: 'Overloaded', wireReason: null, stop: 'error', status: 'error' },
  { file: 'cut.sse', content: 'The answer is', wireReason: null, stop: 'cut', status: 'cut' },
  { file: 'stop-sequence.sse', content: '1, 2, 3', wireReason: 'stop_sequence', stop: 'end_turn', status: 'done' },
  { file: 'redacted-thinking.sse', content: 'Done.', wireReason: 'end_turn', stop: 'end_turn', status: 'done' },
  // One invalid call, every block closed: `end_turn` in Firebrand's vocabulary; the wire's `tool_use` is kept beside it.
  { file: 'tool-use-schema-invalid.sse', options: tools, content: '', calls: [{ id: 'toolu_01Bad', state: 'invalid' }], wireReason: 'tool_use', stop: 'end_turn', status: 'done' },
  // A tool_use block never stopped, then `end_turn`: the call is truncated (never run), and so is the stop.
  { file: 'tool-use-unclosed.sse', options: tools, content: 'Checking the weather.', calls: [{ id: 'toolu_01Open', state: 'truncated', argumentsRaw: '{"location": "San' }], wireReason: 'end_turn', stop: 'truncated', status: 'done' },
];

describe('anthropic through the app pipeline (normalizeStream -> reducer -> drain)', () => {
  for (const w of wants) {
    for (const [how, chunks] of chunkings(fixture('anthropic', w.file))) {
      it(`${w.file} (${how})`, async () => {
        const { turn, output, calls } = await runPipeline(anthropicDialect, chunks, w.options);
        expect(output.content).toBe(w.content);
        expect(output.reasoning).toBe(w.reasoning ?? '');
        expect(calls).toHaveLength(w.calls?.length ?? 0);
        (w.calls ?? []).forEach((c, i) => expect(calls[i]).toMatchObject(c));
        expect(turn.error).toBe(w.error);
        expect(turn.wireReason).toBe(w.wireReason);
        expect(turn.stop).toBe(w.stop);
        expect(turn.status).toBe(w.status);
        if (w.usage) expect(turn.usage).toEqual(w.usage);
      });
    }
  }
});
