// A conversation that exercises every block kind, shared by the Ollama and Anthropic encode tests.
import type { Block, Turn } from '../../../../src/shared/turn';
import type { ToolSchema } from '../../../../src/main/dialects/types';

let n = 0;
function turn(role: Turn['role'], blocks: Block[], extra: Partial<Turn> = {}): Turn {
  n += 1;
  return { id: `t${n}`, conversationId: 'c1', parentId: null, role, blocks, meta: {}, status: 'done', createdAt: n, ...extra };
}

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const PNG_B64 = 'iVBORw0KGgo=';
export const NOTES = new TextEncoder().encode('line one\nline two');

export const blobs = new Map<string, Uint8Array>([
  ['sha-png', PNG],
  ['sha-notes', NOTES],
]);
export const resolveAttachment = (id: string): Uint8Array | undefined => blobs.get(id);

export const weatherTool: ToolSchema = {
  name: 'get_current_weather',
  description: 'Get the current weather for a location',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

export const conversation: Turn[] = [
  turn('system', [{ type: 'text', text: 'You are terse.' }], { source: 'identity', meta: { secret: 'never on the wire' } }),
  turn('user', [
    { type: 'text', text: 'What is in this picture, and the weather in Paris?' },
    { type: 'attachment', id: 'sha-png', kind: 'image', name: 'cat.png', mime: 'image/png', size: PNG.length },
    { type: 'attachment', id: 'sha-notes', kind: 'text', name: 'notes.txt', mime: 'text/plain', size: NOTES.length },
  ]),
  turn('assistant', [
    { type: 'reasoning', text: 'Need the weather tool.', origin: 'native' },
    { type: 'text', text: 'A cat. Checking the weather.' },
    {
      type: 'tool_call',
      id: 'call_0',
      name: 'get_current_weather',
      state: 'complete',
      argumentsRaw: '{"location":"Paris, FR"}',
      arguments: { location: 'Paris, FR' },
    },
  ]),
  turn('tool', [{ type: 'tool_result', toolCallId: 'call_0', name: 'get_current_weather', content: '18°C, clear', isError: false }]),
  turn('assistant', [
    { type: 'reasoning', text: '<think>residue</think>', origin: 'inline' },
    { type: 'text', text: 'It is 18°C and clear.' },
  ]),
  turn('user', [{ type: 'text', text: 'Thanks!' }]),
];
