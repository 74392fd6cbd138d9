import { describe, expect, it } from 'vitest';
import { openaiDialect } from '../../../../src/main/dialects/openai/index';
import type { Block, Role, Turn } from '../../../../src/shared/turn';

const turn = (role: Role, blocks: Block[], id = role): Turn => ({ id, conversationId: 'c', parentId: null, role, blocks, meta: {}, status: 'done', createdAt: 0 });

describe('openai encode', () => {
  it('encodes roles, tool calls, tool results, images; drops reasoning', () => {
    const body = openaiDialect.encode({
      model: 'qwen3',
      stream: true,
      maxTokens: 256,
      params: { temperature: 0.2, model: 'ignored' },
      tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object' } }],
      resolveAttachment: () => new Uint8Array([1, 2, 3]),
      turns: [
        turn('system', [{ type: 'text', text: 'Be brief.' }]),
        turn('user', [{ type: 'text', text: 'What is this?' }, { type: 'attachment', id: 'sha', kind: 'image', name: 'a.png', mime: 'image/png', size: 3 }]),
        turn('assistant', [
          { type: 'reasoning', text: 'secret', origin: 'native' },
          { type: 'tool_call', id: 'call_1', name: 'get_weather', state: 'complete', argumentsRaw: '{"city":"Paris"}', arguments: { city: 'Paris' } },
          { type: 'tool_call', id: 'call_2', name: 'get_weather', state: 'invalid', argumentsRaw: '{"city": Paris}', error: 'bad' },
        ]),
        turn('tool', [
          { type: 'tool_result', toolCallId: 'call_1', name: 'get_weather', content: 'sunny', isError: false },
          { type: 'tool_result', toolCallId: 'call_2', name: 'get_weather', content: 'bad JSON', isError: true },
        ]),
      ],
    });
    expect(body).toEqual({
      temperature: 0.2,
      model: 'qwen3',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 256,
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } } }],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: 'Error: bad JSON' },
      ],
    });
    expect(JSON.stringify(body)).not.toContain('secret');
  });

  it('non-streaming requests carry no stream_options; think goes to chat_template_kwargs', () => {
    const body = openaiDialect.encode({ model: 'm', stream: false, think: false, turns: [turn('user', [{ type: 'text', text: 'hi' }])] });
    expect(body).toEqual({ model: 'm', stream: false, messages: [{ role: 'user', content: 'hi' }], chat_template_kwargs: { enable_thinking: false } });
  });
});
