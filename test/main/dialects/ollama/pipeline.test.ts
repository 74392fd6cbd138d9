import { describe, it, expect } from 'vitest';
import { ollamaDialect } from '../../../../src/main/dialects/ollama';
import type { ParserOptions, ToolSchema } from '../../../../src/main/dialects/types';
import type { ToolCallBlock, TurnStatus, Usage } from '../../../../src/shared/turn';
import { chunkings, fixture } from './replay';
import { runPipeline } from './pipeline';

const weather: ToolSchema = {
  name: 'get_current_weather',
  description: 'Get the current weather',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string' }, format: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['location', 'format'],
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

// What the user sees after the drain (edge trim once a tag was consumed, DESIGN.md §4).
const wants: Want[] = [
  { file: 'plain-text.ndjson', content: 'The sky is blue because of Rayleigh scattering.', wireReason: 'stop', stop: 'end_turn', status: 'done', usage: { inputTokens: 26, outputTokens: 9, promptMs: 342.546, generationMs: 4535.599, totalMs: 4883.583458 } },
  { file: 'native-thinking.ndjson', content: '2 + 2 = 4', reasoning: 'The user wants 2+2. That is 4.', wireReason: 'stop', stop: 'end_turn', status: 'done' },
  { file: 'inline-think-escaped.ndjson', content: 'Yes: 3 < 5.', reasoning: 'Compare 3 < 5 & 5 > 3.', wireReason: 'stop', stop: 'end_turn', status: 'done' },
  { file: 'template-opened-think.ndjson', options: { thinkOpen: true }, content: 'Hello!', reasoning: 'Hmm, a greeting.', wireReason: 'stop', stop: 'end_turn', status: 'done' },
  { file: 'template-opened-think.ndjson', content: 'Hmm, a greeting.\n</think>\n\nHello!', wireReason: 'stop', stop: 'end_turn', status: 'done' },
  { file: 'tool-call-stop.ndjson', options: tools, content: '', calls: [{ id: 'call_0', name: 'get_current_weather', state: 'complete', argumentsRaw: '{"format":"celsius","location":"Paris, FR"}', arguments: { format: 'celsius', location: 'Paris, FR' } }], wireReason: 'stop', stop: 'tool_use', status: 'done' },
  { file: 'two-tool-calls.ndjson', options: tools, content: '', reasoning: 'Two cities: call twice.', calls: [{ id: 'call_x1y2z3', state: 'complete' }, { id: 'call_a4b5c6', state: 'complete', arguments: { format: 'fahrenheit', location: 'Austin, US' } }], wireReason: 'stop', stop: 'tool_use', status: 'done' },
  { file: 'invalid-tool-args.ndjson', options: tools, content: '', calls: [{ state: 'invalid', argumentsRaw: '{"format":"kelvin"}' }], wireReason: 'stop', stop: 'end_turn', status: 'done' },
  { file: 'unknown-tool.ndjson', options: tools, content: 'Let me look that up.', calls: [{ name: 'search_web', state: 'invalid' }], wireReason: 'stop', stop: 'end_turn', status: 'done' },
  { file: 'done-length.ndjson', content: 'Once upon a time', wireReason: 'length', stop: 'max_tokens', status: 'done' },
  { file: 'error-after-stream.ndjson', content: ' Yes. I', error: 'an error was encountered while running the model: unexpected EOF', wireReason: null, stop: 'error', status: 'error' },
  { file: 'error-before-content.ndjson', content: '', error: 'model requires more system memory (9.4 GiB) than is available (6.1 GiB)', wireReason: null, stop: 'error', status: 'error' },
  { file: 'cut.ndjson', content: 'The answer is', wireReason: null, stop: 'cut', status: 'cut' },
  { file: 'done-no-reason.ndjson', content: 'Hi there', wireReason: null, stop: 'end_turn', status: 'done' },
  { file: 'garbage-line.ndjson', content: 'Hello world', wireReason: 'stop', stop: 'end_turn', status: 'done' },
  { file: 'no-trailing-newline.ndjson', content: 'Done', wireReason: 'stop', stop: 'end_turn', status: 'done' },
];

describe('ollama through the app pipeline (normalizeStream -> reducer -> drain)', () => {
  for (const w of wants) {
    const label = `${w.file}${w.options ? ` ${Object.keys(w.options).join(',')}` : ''}`;
    for (const [how, chunks] of chunkings(fixture('ollama', w.file))) {
      it(`${label} (${how})`, async () => {
        const { turn, output, calls } = await runPipeline(ollamaDialect, chunks, w.options);
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
