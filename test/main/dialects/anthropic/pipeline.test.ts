import { describe, it, expect } from 'vitest';
import { anthropicDialect } from '../../../../src/main/dialects/anthropic';
import type { ParserOptions, ToolSchema } from '../../../../src/main/dialects/types';
import type { ToolCallBlock, Turn, TurnStatus, Usage } from '../../../../src/shared/turn';
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

describe('anthropic: signed and redacted reasoning go back in the next request of a tool-use cycle', () => {
  const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB9URj2pLmN3kF8/dW5hR7xJ';

  for (const [how, chunks] of chunkings(fixture('anthropic', 'thinking-tool-use.sse'))) {
    it(`keeps a thinking block's signature with it (${how}), and sends it back before the tool_use with thinking on`, async () => {
      const weatherCall: ToolSchema = { name: 'get_weather', description: 'Get the weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } };
      const { turn } = await runPipeline(anthropicDialect, chunks, { tools: [weatherCall] });
      const reasoning = turn.blocks[0];
      expect(reasoning).toEqual({ type: 'reasoning', origin: 'native', text: 'The user wants the weather in Paris. I should call get_weather.', signature: expect.stringMatching(/^EqQBCgIYAhIM.*==$/) });
      const answered: Turn[] = [
        { id: 'u1', conversationId: 'c1', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'Weather in Paris?' }], meta: {}, status: 'done', createdAt: 0 },
        { ...turn, id: 'a1', parentId: 'u1' },
        { id: 't1', conversationId: 'c1', parentId: 'a1', role: 'tool', blocks: [{ type: 'tool_result', toolCallId: 'toolu_01ThinkTool0000000000', name: 'get_weather', content: '18°C', isError: false }], meta: {}, status: 'done', createdAt: 2 },
      ];
      const encode = (think: boolean) => anthropicDialect.encode({ model: 'claude-sonnet-4-5', turns: answered, tools: [weatherCall], contextWindow: 200_000, stream: true, think }) as { messages: { role: string; content: Record<string, unknown>[] }[] };
      const withThinking = encode(true).messages[1]!;
      expect(withThinking.role).toBe('assistant');
      expect(withThinking.content.map((c) => c['type'])).toEqual(['thinking', 'tool_use']);
      expect(withThinking.content[0]).toEqual({ type: 'thinking', thinking: (reasoning as { text: string }).text, signature: (reasoning as { signature: string }).signature });
      // Thinking off: no thinking block goes (the API wants none without it).
      expect(encode(false).messages[1]!.content.map((c) => c['type'])).toEqual(['tool_use']);
    });
  }

  it('keeps a redacted_thinking block\'s data, shown as nothing readable, and sends it back as it came', async () => {
    const { turn, output } = await runPipeline(anthropicDialect, [fixture('anthropic', 'redacted-thinking.sse')]);
    expect(output.reasoning).toBe('');
    expect(turn.blocks[0]).toEqual({ type: 'reasoning', origin: 'native', text: '', redacted: REDACTED });
    const body = anthropicDialect.encode({ model: 'claude-sonnet-4-5', turns: [{ ...turn, parentId: null }], contextWindow: 200_000, stream: true, think: true }) as { messages: { content: unknown[] }[] };
    expect(body.messages[0]!.content[0]).toEqual({ type: 'redacted_thinking', data: REDACTED });
  });

  it('never sends reasoning without a signature (another model\'s, or inline <think> text): the API refuses unsigned thinking', () => {
    const turn: Turn = { id: 'a1', conversationId: 'c1', parentId: null, role: 'assistant', blocks: [{ type: 'reasoning', origin: 'inline', text: 'Local thoughts.' }, { type: 'text', text: 'Hi.' }], meta: {}, status: 'done', createdAt: 1 };
    const body = anthropicDialect.encode({ model: 'claude-sonnet-4-5', turns: [turn], contextWindow: 200_000, stream: true, think: true }) as { messages: { content: unknown[] }[] };
    expect(body.messages[0]!.content).toEqual([{ type: 'text', text: 'Hi.' }]);
  });
});
