import { describe, it, expect } from 'vitest';
import { ollamaDialect } from '../../../../src/main/dialects/ollama';
import type { Turn } from '../../../../src/shared/turn';
import { conversation, PNG_B64, resolveAttachment, weatherTool } from './conversation';

describe('ollama encode', () => {
  it('builds the exact /api/chat body for a full conversation', () => {
    const body = ollamaDialect.encode({
      model: 'qwen3:8b',
      turns: conversation,
      tools: [weatherTool],
      params: { temperature: 0.2, top_p: 0.9 },
      contextWindow: 8192,
      think: true,
      maxTokens: 1024,
      stream: true,
      resolveAttachment,
    });
    expect(body).toEqual({
      model: 'qwen3:8b',
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'user',
          content: 'What is in this picture, and the weather in Paris?\n\n<file name="notes.txt">\nline one\nline two\n</file>',
          images: [PNG_B64],
        },
        {
          role: 'assistant',
          content: 'A cat. Checking the weather.',
          tool_calls: [{ function: { name: 'get_current_weather', arguments: { location: 'Paris, FR' } } }],
        },
        { role: 'tool', content: '18°C, clear', tool_name: 'get_current_weather' },
        { role: 'assistant', content: 'It is 18°C and clear.' },
        { role: 'user', content: 'Thanks!' },
      ],
      stream: true,
      think: true,
      tools: [
        {
          type: 'function',
          function: { name: 'get_current_weather', description: weatherTool.description, parameters: weatherTool.parameters },
        },
      ],
      options: { temperature: 0.2, top_p: 0.9, num_ctx: 8192, num_predict: 1024 },
      truncate: false,
    });
    // Meta and reasoning never reach the wire.
    const json = JSON.stringify(body);
    expect(json).not.toContain('never on the wire');
    expect(json).not.toContain('Need the weather tool');
    expect(json).not.toContain('residue');
  });

  it('omits what was not asked for: think, tools, num_ctx/truncate, num_predict', () => {
    const body = ollamaDialect.encode({ model: 'm', turns: conversation.slice(5), stream: false });
    expect(body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Thanks!' }], stream: false, options: {} });
    expect(ollamaDialect.encode({ model: 'm', turns: [], stream: true, think: false }).think).toBe(false);
  });

  it('lets the explicit context window win over a preset num_ctx', () => {
    const body = ollamaDialect.encode({ model: 'm', turns: [], stream: true, params: { num_ctx: 2048 }, contextWindow: 16384 });
    expect(body.options).toEqual({ num_ctx: 16384 });
  });

  it('sends invalid calls with what parsed (else {}) so their error results follow a call', () => {
    const turns: Turn[] = [
      {
        id: 'a',
        conversationId: 'c',
        parentId: null,
        role: 'assistant',
        meta: {},
        status: 'done',
        createdAt: 1,
        blocks: [
          { type: 'tool_call', id: 'call_0', name: 'f', state: 'invalid', argumentsRaw: '{"x":', error: 'bad' },
          { type: 'tool_call', id: 'call_1', name: 'g', state: 'invalid', argumentsRaw: '{"format":"kelvin"}', error: 'enum' },
        ],
      },
    ];
    const body = ollamaDialect.encode({ model: 'm', turns, stream: true });
    expect(body.messages).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'f', arguments: {} } }, { function: { name: 'g', arguments: { format: 'kelvin' } } }],
      },
    ]);
  });

  it('says so in text when an attachment is gone from the blob store', () => {
    const turns = conversation.slice(1, 2);
    const body = ollamaDialect.encode({ model: 'm', turns, stream: true, resolveAttachment: () => undefined });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content:
          'What is in this picture, and the weather in Paris?\n\n<file name="cat.png">\n[This file is not available: it is no longer stored]\n</file>\n\n<file name="notes.txt">\n[This file is not available: it is no longer stored]\n</file>',
      },
    ]);
  });
});
