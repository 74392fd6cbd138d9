/**
 * The same evidence gives the same stop on every dialect (issue 16): one invalid tool call with every block
 * closed ends as `end_turn` whether the wire said Ollama's `stop`, OpenAI's `tool_calls` or Anthropic's
 * `tool_use`; the wire's own word is kept beside it. Replayed at every chunking through the app's pipeline.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/main/cli/replay';
import type { ToolSchema } from '../../../src/main/dialects/types';
import type { ChunkSpec } from '../../../src/main/leg/chunking';

const fixture = (name: string) => readFileSync(path.resolve(__dirname, '../../fixtures', name));
const tool = (name: string, properties: ToolSchema['parameters'], required: string[]): ToolSchema => ({
  name,
  description: '',
  parameters: { type: 'object', properties, required },
});

const CHUNKINGS: ChunkSpec[] = [{ kind: 'whole' }, { kind: 'fixed', size: 1 }, { kind: 'fixed', size: 5 }, { kind: 'random', seed: 7 }, { kind: 'random', seed: 4242 }];
const CASES = [
  {
    file: 'ollama/invalid-tool-args.ndjson',
    wire: 'stop',
    tools: [tool('get_current_weather', { location: { type: 'string' }, format: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, ['location', 'format'])],
  },
  { file: 'openai/invalid-json-args.sse', wire: 'tool_calls', tools: [tool('get_weather', { city: { type: 'string' } }, ['city'])] },
  {
    file: 'anthropic/tool-use-schema-invalid.sse',
    wire: 'tool_use',
    tools: [tool('get_weather', { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, ['location'])],
  },
];

describe('one invalid call ends the same on every dialect', () => {
  for (const c of CASES) {
    it(`${c.file}: end_turn at every chunking, the wire's ${c.wire} kept beside it`, async () => {
      for (const chunk of CHUNKINGS) {
        const out = await replay(fixture(c.file), { tools: c.tools, chunk });
        expect(out.invalid_calls).toHaveLength(1);
        expect(out.tool_calls).toEqual([]);
        expect(out.stop).toBe('end_turn');
        expect(out.wire_reason).toBe(c.wire);
      }
    });
  }
});
