/**
 * Issue 19: an image an MCP tool returned rides in the tool turn by reference (an attachment naming its call) and
 * each dialect sends it the way its wire allows: Anthropic inside the `tool_result` (which must lead its user
 * message), Ollama on the tool message's `images`, OpenAI as a user message after the tool messages (a tool
 * message carries text only).
 */
import { describe, expect, it } from 'vitest';
import { anthropicDialect } from '../../../src/main/dialects/anthropic/index';
import { ollamaDialect } from '../../../src/main/dialects/ollama/index';
import { openaiDialect } from '../../../src/main/dialects/openai/index';
import type { Block, Role, Turn } from '../../../src/shared/turn';

const turn = (role: Role, blocks: Block[]): Turn => ({ id: role, conversationId: 'c', parentId: null, role, blocks, meta: {}, status: 'done', createdAt: 0 });
const turns: Turn[] = [
  turn('user', [{ type: 'text', text: 'Show me the logo' }]),
  turn('assistant', [{ type: 'tool_call', id: 'call_0', name: 'get_logo', state: 'complete', argumentsRaw: '{}', arguments: {} }]),
  turn('tool', [
    { type: 'tool_result', toolCallId: 'call_0', name: 'get_logo', content: 'Here:\n[image 1: get_logo-1.png, attached below]', isError: false },
    { type: 'attachment', id: 'd'.repeat(64), kind: 'image', name: 'get_logo-1.png', mime: 'image/png', size: 3, toolCallId: 'call_0' },
  ]),
];
const input = { model: 'm', stream: true, turns, resolveAttachment: () => new Uint8Array([1, 2, 3]) };

describe('an image a tool returned', () => {
  it('Anthropic: inside its tool_result, after the text', () => {
    const body = anthropicDialect.encode(input) as { messages: { role: string; content: unknown[] }[] };
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_0',
          content: [
            { type: 'text', text: 'Here:\n[image 1: get_logo-1.png, attached below]' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AQID' } },
          ],
        },
      ],
    });
  });

  it('Ollama: on the tool message of its call', () => {
    const body = ollamaDialect.encode(input) as { messages: unknown[] };
    expect(body.messages.at(-1)).toEqual({ role: 'tool', content: 'Here:\n[image 1: get_logo-1.png, attached below]', tool_name: 'get_logo', images: ['AQID'] });
  });

  it('OpenAI: a user message after the tool messages', () => {
    const body = openaiDialect.encode(input) as { messages: unknown[] };
    expect(body.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_0', content: 'Here:\n[image 1: get_logo-1.png, attached below]' },
      { role: 'user', content: [{ type: 'text', text: 'The image returned by the tool call above:' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } }] },
    ]);
  });
});
