import { describe, it, expect } from 'vitest';
import { anthropicDialect } from '../../../../src/main/dialects/anthropic';
import { conversation, PNG_B64, resolveAttachment, weatherTool } from '../ollama/conversation';

describe('anthropic encode', () => {
  it('builds the exact /v1/messages body for a full conversation', () => {
    const body = anthropicDialect.encode({
      model: 'claude-sonnet-4-5',
      turns: conversation,
      tools: [weatherTool],
      params: { temperature: 0.2, top_p: 0.9, num_gpu: 99 },
      contextWindow: 200000,
      maxTokens: 2048,
      stream: true,
      resolveAttachment,
    });
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      system: 'You are terse.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture, and the weather in Paris?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } },
            { type: 'text', text: '<file name="notes.txt">\nline one\nline two\n</file>' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'A cat. Checking the weather.' },
            { type: 'tool_use', id: 'call_0', name: 'get_current_weather', input: { location: 'Paris, FR' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_0', content: '18°C, clear' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'It is 18°C and clear.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks!' }] },
      ],
      temperature: 0.2,
      top_p: 0.9,
      tools: [{ name: 'get_current_weather', description: weatherTool.description, input_schema: weatherTool.parameters }],
      stream: true,
    });
    const json = JSON.stringify(body);
    expect(json).not.toContain('never on the wire');
    expect(json).not.toContain('Need the weather tool');
  });

  it('defaults max_tokens, and with thinking sets a budget below it and drops temperature', () => {
    expect(anthropicDialect.encode({ model: 'm', turns: [], stream: false })).toEqual({ model: 'm', max_tokens: 4096, messages: [], stream: false });
    const thinking = anthropicDialect.encode({ model: 'm', turns: [], stream: true, think: true, params: { temperature: 0.7, top_k: 5 } });
    expect(thinking).toEqual({ model: 'm', max_tokens: 4096, messages: [], thinking: { type: 'enabled', budget_tokens: 2048 }, stream: true });
    const small = anthropicDialect.encode({ model: 'm', turns: [], stream: true, think: true, maxTokens: 1000 });
    expect(small.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(small.max_tokens).toBeGreaterThan(1024);
  });

  it('merges a tool result and the next user text into one user message, marks errors', () => {
    const [system, user, assistant, tool] = conversation;
    if (!system || !user || !assistant || !tool) throw new Error('fixture conversation');
    const followUp = { ...user, id: 'u2', blocks: [{ type: 'text' as const, text: 'and tomorrow?' }] };
    const errTool = { ...tool, blocks: [{ type: 'tool_result' as const, toolCallId: 'call_0', name: 'get_current_weather', content: 'timeout', isError: true }] };
    const body = anthropicDialect.encode({ model: 'm', turns: [assistant, errTool, followUp], stream: true });
    expect(body.messages).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'A cat. Checking the weather.' },
          { type: 'tool_use', id: 'call_0', name: 'get_current_weather', input: { location: 'Paris, FR' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_0', content: 'timeout', is_error: true },
          { type: 'text', text: 'and tomorrow?' },
        ],
      },
    ]);
  });
});

describe('anthropic errorMessage', () => {
  it("returns the API's message", () => {
    expect(anthropicDialect.errorMessage(404, '{"type":"error","error":{"type":"not_found_error","message":"model: claude-x"}}')).toBe('model: claude-x');
    expect(anthropicDialect.errorMessage(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toBe('Overloaded');
  });
  it('falls back to the status', () => {
    expect(anthropicDialect.errorMessage(500, '')).toBe('The server answered HTTP 500: it failed while answering. Try again; if it goes on, see its log.');
    expect(anthropicDialect.errorMessage(502, '<html>bad gateway</html>')).toBe(
      'The server answered HTTP 502 with a web page: a proxy in front of it got no answer from it. Is the server running?',
    );
    expect(anthropicDialect.errorMessage(418, '')).toBe('The server answered HTTP 418.');
  });
});
