import { describe, it, expect } from 'vitest';
import { anthropicDialect } from '../../../../src/main/dialects/anthropic';
import type { ParserOptions, ToolSchema } from '../../../../src/main/dialects/types';
import type { Usage } from '../../../../src/shared/turn';
import { chunkings, fixture, replay, summarize, type ToolCallSummary } from '../ollama/replay';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather in a given location',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['location'],
  },
};
const tools = { tools: [weather] };

interface Case {
  file: string;
  options?: ParserOptions;
  text: string;
  native?: string;
  calls?: Array<Partial<ToolCallSummary>>;
  errors?: string[];
  wireReason: string | null;
  stop: string;
  usage?: Usage;
}

const cases: Case[] = [
  { file: 'plain-text.sse', text: 'Hello! How can I help?', wireReason: 'end_turn', stop: 'end_turn', usage: { inputTokens: 25, outputTokens: 15 } },
  { file: 'thinking-text.sse', text: '27 × 453 = 12,231', native: 'The user asks 27 * 453. 27 * 453 = 12231.', wireReason: 'end_turn', stop: 'end_turn' },
  {
    file: 'tool-use-fragments.sse',
    options: tools,
    text: 'Okay, let me check the weather in San Francisco.',
    calls: [
      {
        toolCallId: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        name: 'get_weather',
        state: 'complete',
        argumentsRaw: '{"location": "San Francisco, CA", "unit": "fahrenheit"}',
        arguments: { location: 'San Francisco, CA', unit: 'fahrenheit' },
      },
    ],
    wireReason: 'tool_use',
    stop: 'tool_use',
    usage: { inputTokens: 472, outputTokens: 89 },
  },
  {
    file: 'two-tool-use.sse',
    options: tools,
    text: '',
    calls: [
      { toolCallId: 'toolu_01A', state: 'complete', arguments: { location: 'Paris, FR' } },
      { toolCallId: 'toolu_01B', state: 'complete', arguments: { location: 'Austin, TX', unit: 'celsius' } },
    ],
    wireReason: 'tool_use',
    stop: 'tool_use',
  },
  { file: 'max-tokens-in-tool-use.sse', options: tools, text: '', calls: [{ toolCallId: 'toolu_01Cut', state: 'truncated', argumentsRaw: '{"location": "San Fr' }], wireReason: 'max_tokens', stop: 'max_tokens' },
  { file: 'max-tokens-in-tool-use-closed.sse', options: tools, text: 'Checking.', calls: [{ toolCallId: 'toolu_01Cut2', state: 'truncated' }], wireReason: 'max_tokens', stop: 'max_tokens' },
  // message_start's output_tokens (1) is a placeholder, not a count: an answer the server never finished has none.
  { file: 'error-mid-stream.sse', text: 'Partial ans', errors: ['Overloaded'], wireReason: null, stop: 'error', usage: { inputTokens: 30 } },
  { file: 'cut.sse', text: 'The answer is', wireReason: null, stop: 'cut', usage: { inputTokens: 30 } },
  { file: 'stop-sequence.sse', text: '1, 2, 3', wireReason: 'stop_sequence', stop: 'end_turn', usage: { inputTokens: 22, outputTokens: 7 } },
  { file: 'redacted-thinking.sse', text: 'Done.', wireReason: 'end_turn', stop: 'end_turn' },
  // The only call breaks the schema: no complete call, every block closed: `end_turn` in Firebrand's vocabulary,
  // the wire's `tool_use` kept beside it. The engine still owes the model an error result.
  { file: 'tool-use-schema-invalid.sse', options: tools, text: '', calls: [{ state: 'invalid', argumentsRaw: '{"unit": "kelvin"}' }], wireReason: 'tool_use', stop: 'end_turn' },
];

describe('anthropic parse: fixtures at every chunking', () => {
  for (const c of cases) {
    for (const [how, chunks] of chunkings(fixture('anthropic', c.file))) {
      it(`${c.file} (${how})`, async () => {
        const s = summarize(await replay(anthropicDialect, chunks, c.options));
        expect(s.text).toBe(c.text);
        expect(s.native).toBe(c.native ?? '');
        expect(s.inline).toBe('');
        expect(s.toolCalls).toHaveLength(c.calls?.length ?? 0);
        (c.calls ?? []).forEach((want, i) => expect(s.toolCalls[i]).toMatchObject(want));
        expect(s.errors).toEqual(c.errors ?? []);
        expect(s.finish.wireReason).toBe(c.wireReason);
        expect(s.finish.stop).toBe(c.stop);
        if (c.usage) expect(s.finish.usage).toEqual(c.usage);
      });
    }
  }
});

describe('anthropic parse: details', () => {
  it('gives truncated and invalid calls an error the model can act on', async () => {
    const cut = summarize(await replay(anthropicDialect, [fixture('anthropic', 'max-tokens-in-tool-use.sse')], tools));
    expect(cut.toolCalls[0]?.error).toMatch(/get_weather/);
    const bad = summarize(await replay(anthropicDialect, [fixture('anthropic', 'tool-use-schema-invalid.sse')], tools));
    expect(bad.toolCalls[0]?.error).toMatch(/location/);
  });

  it('reports the error type as the code', async () => {
    const parts = await replay(anthropicDialect, [fixture('anthropic', 'error-mid-stream.sse')]);
    expect(parts.find((p) => p.type === 'error')).toEqual({ type: 'error', message: 'Overloaded', code: 'overloaded_error' });
  });

  it('counts cache reads and writes as prompt tokens', () => {
    const p = anthropicDialect.createParser();
    p.push({ event: 'message_start', data: '{"type":"message_start","message":{"usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":1}}}' });
    p.push({ event: 'message_stop', data: '{"type":"message_stop"}' });
    expect(p.end().at(-1)).toEqual({ type: 'finish', wireReason: null, usage: { inputTokens: 1110 }, stop: 'end_turn' });
  });

  it('a tool call without any input fragments has {} arguments', () => {
    const p = anthropicDialect.createParser();
    p.push({ event: 'content_block_start', data: '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"now","input":{}}}' });
    const parts = p.push({ event: 'content_block_stop', data: '{"type":"content_block_stop","index":0}' });
    expect(parts).toEqual([{ type: 'tool-call-end', id: expect.any(String), state: 'complete', arguments: {} }]);
  });

  it('splits inline think tags in text blocks (gateways passing them through)', () => {
    const p = anthropicDialect.createParser();
    const parts = [
      ...p.push({ data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}' }),
      ...p.push({ data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"<think>hm</think>Hi"}}' }),
      ...p.push({ data: '{"type":"content_block_stop","index":0}' }),
      ...p.push({ data: '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}' }),
      ...p.push({ data: '{"type":"message_stop"}' }),
      ...p.end(),
    ];
    const s = summarize(parts);
    expect(s.inline).toBe('hm');
    expect(s.text).toBe('Hi');
  });
});

describe('anthropic parse: non-streaming body', () => {
  it('reads a whole `message` object (stream: false) like the stream it would have been', () => {
    const p = anthropicDialect.createParser(tools);
    const body = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Weather needed.', signature: 'sig' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_9', name: 'get_weather', input: { location: 'Oslo' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 12, output_tokens: 30 },
    };
    const s = summarize([...p.push({ data: JSON.stringify(body) }), ...p.end()]);
    expect(s.native).toBe('Weather needed.');
    expect(s.text).toBe('Checking.');
    expect(s.toolCalls).toEqual([{ toolCallId: 'toolu_9', name: 'get_weather', state: 'complete', argumentsRaw: '{"location":"Oslo"}', arguments: { location: 'Oslo' } }]);
    expect(s.finish).toEqual({ type: 'finish', wireReason: 'tool_use', stop: 'tool_use', usage: { inputTokens: 12, outputTokens: 30 } });
  });
});
