import { describe, it, expect } from 'vitest';
import { ollamaDialect, OllamaParser } from '../../../../src/main/dialects/ollama';
import type { ParserOptions, ToolSchema } from '../../../../src/main/dialects/types';
import type { Usage } from '../../../../src/shared/turn';
import { chunkings, fixture, replay, summarize, type ToolCallSummary } from './replay';

const weatherTool: ToolSchema = {
  name: 'get_current_weather',
  description: 'Get the current weather for a location',
  parameters: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'City and country, e.g. Paris, FR' },
      format: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['location', 'format'],
  },
};
const tools = { tools: [weatherTool] };

interface Case {
  file: string;
  options?: ParserOptions;
  text: string;
  native?: string;
  inline?: string;
  calls?: Array<Partial<ToolCallSummary>>;
  errors?: string[];
  wireReason: string | null;
  stop: string;
  usage?: Usage;
}

const cases: Case[] = [
  {
    file: 'plain-text.ndjson',
    text: 'The sky is blue because of Rayleigh scattering.',
    wireReason: 'stop',
    stop: 'end_turn',
    usage: { inputTokens: 26, outputTokens: 9, promptMs: 342.546, generationMs: 4535.599, totalMs: 4883.583458 },
  },
  { file: 'native-thinking.ndjson', text: '2 + 2 = 4', native: 'The user wants 2+2. That is 4.', wireReason: 'stop', stop: 'end_turn' },
  // `<`/`>`/`&` arrive as \u003c/\u003e/\u0026 (Go's HTML-safe JSON); the tag is also split across lines.
  { file: 'inline-think-escaped.ndjson', text: 'Yes: 3 < 5.', inline: 'Compare 3 < 5 & 5 > 3.', wireReason: 'stop', stop: 'end_turn' },
  { file: 'template-opened-think.ndjson', options: { thinkOpen: true }, text: 'Hello!', inline: 'Hmm, a greeting.', wireReason: 'stop', stop: 'end_turn' },
  // Without knowing the template opened the block, the orphan close tag passes through byte-identical (DESIGN §4).
  { file: 'template-opened-think.ndjson', text: 'Hmm, a greeting.\n</think>\n\nHello!', wireReason: 'stop', stop: 'end_turn' },
  {
    file: 'tool-call-stop.ndjson',
    options: tools,
    text: '',
    calls: [{ toolCallId: 'call_0', name: 'get_current_weather', state: 'complete', arguments: { format: 'celsius', location: 'Paris, FR' } }],
    wireReason: 'stop',
    stop: 'tool_use',
    usage: { inputTokens: 122, outputTokens: 33, promptMs: 328.493, generationMs: 552.222, totalMs: 885.095291 },
  },
  {
    file: 'two-tool-calls.ndjson',
    options: tools,
    text: '',
    native: 'Two cities: call twice.',
    calls: [
      { toolCallId: 'call_x1y2z3', state: 'complete', arguments: { format: 'celsius', location: 'Paris, FR' } },
      { toolCallId: 'call_a4b5c6', state: 'complete', arguments: { format: 'fahrenheit', location: 'Austin, US' } },
    ],
    wireReason: 'stop',
    stop: 'tool_use',
  },
  // Schema-invalid: `location` missing and `format` not in the enum. No complete call: not `tool_use`.
  { file: 'invalid-tool-args.ndjson', options: tools, text: '', calls: [{ name: 'get_current_weather', state: 'invalid' }], wireReason: 'stop', stop: 'end_turn' },
  // Replayed without a tool list, only JSON-ness is checked (a capture replay must not invent errors).
  { file: 'invalid-tool-args.ndjson', text: '', calls: [{ state: 'complete', arguments: { format: 'kelvin' } }], wireReason: 'stop', stop: 'tool_use' },
  { file: 'unknown-tool.ndjson', options: tools, text: 'Let me look that up.', calls: [{ toolCallId: 'call_0', name: 'search_web', state: 'invalid' }], wireReason: 'stop', stop: 'end_turn' },
  { file: 'done-length.ndjson', text: 'Once upon a time', wireReason: 'length', stop: 'max_tokens' },
  {
    file: 'error-after-stream.ndjson',
    text: ' Yes. I',
    errors: ['an error was encountered while running the model: unexpected EOF'],
    wireReason: null,
    stop: 'error',
  },
  { file: 'error-before-content.ndjson', text: '', errors: ['model requires more system memory (9.4 GiB) than is available (6.1 GiB)'], wireReason: null, stop: 'error' },
  { file: 'cut.ndjson', text: 'The answer is', wireReason: null, stop: 'cut' },
  { file: 'done-no-reason.ndjson', text: 'Hi there', wireReason: null, stop: 'end_turn', usage: { inputTokens: 5, outputTokens: 2, generationMs: 100, totalMs: 200 } },
  { file: 'garbage-line.ndjson', text: 'Hello world', wireReason: 'stop', stop: 'end_turn', usage: { inputTokens: 8, outputTokens: 2 } },
  { file: 'no-trailing-newline.ndjson', text: 'Done', wireReason: 'stop', stop: 'end_turn' },
];

describe('ollama parse: fixtures at every chunking', () => {
  for (const c of cases) {
    const label = `${c.file}${c.options ? ` ${JSON.stringify(Object.keys(c.options))}` : ''}`;
    for (const [how, chunks] of chunkings(fixture('ollama', c.file))) {
      it(`${label} (${how})`, async () => {
        const s = summarize(await replay(ollamaDialect, chunks, c.options));
        expect(s.text.trim()).toBe(c.text.trim());
        if (c.text && !c.inline) expect(s.text).toBe(c.text);
        expect(s.native).toBe(c.native ?? '');
        expect(s.inline.trim()).toBe(c.inline ?? '');
        expect(s.toolCalls).toHaveLength(c.calls?.length ?? 0);
        (c.calls ?? []).forEach((want, i) => expect(s.toolCalls[i]).toMatchObject(want));
        expect(s.errors).toEqual(c.errors ?? []);
        expect(s.finish.wireReason).toBe(c.wireReason);
        expect(s.finish.stop).toBe(c.stop);
        if (c.usage) {
          expect(s.usage).toEqual(c.usage);
          expect(s.finish.usage).toEqual(c.usage);
        }
      });
    }
  }
});

describe('ollama parse: details', () => {
  it('invalid calls carry an error the model can act on, and the raw arguments as received', async () => {
    const s = summarize(await replay(ollamaDialect, [fixture('ollama', 'invalid-tool-args.ndjson')], tools));
    const call = s.toolCalls[0];
    expect(call?.argumentsRaw).toBe('{"format":"kelvin"}');
    expect(call?.error).toMatch(/location/);
    expect(call?.error).toMatch(/celsius/);
    const unknown = summarize(await replay(ollamaDialect, [fixture('ollama', 'unknown-tool.ndjson')], tools));
    expect(unknown.toolCalls[0]?.error).toMatch(/search_web/);
  });

  it('orders runs: native reasoning closes before content, content closes before a tool call', async () => {
    const parts = await replay(ollamaDialect, [fixture('ollama', 'two-tool-calls.ndjson')], tools);
    const kinds = parts.map((p) => p.type);
    expect(kinds.indexOf('reasoning-end')).toBeLessThan(kinds.indexOf('tool-call-start'));
    const unknown = (await replay(ollamaDialect, [fixture('ollama', 'unknown-tool.ndjson')], tools)).map((p) => p.type);
    expect(unknown.indexOf('text-end')).toBeLessThan(unknown.indexOf('tool-call-start'));
  });

  it('skips a non-JSON line and keeps it for the record', () => {
    const parser = ollamaDialect.createParser();
    expect(parser).toBeInstanceOf(OllamaParser);
    const p = parser as OllamaParser;
    expect(p.push({ data: '<html>502</html>' })).toEqual([]);
    expect(p.push({ data: '[1,2]' })).toEqual([]);
    expect(p.skippedLines).toEqual(['<html>502</html>', '[1,2]']);
  });

  // A stream of no Ollama line ended as "The connection closed before the answer was finished. What arrived is kept."
  it('says a stream of no Ollama line is not Ollama\'s, not that the connection closed; a cut first line stays a cut', () => {
    const sse = ollamaDialect.createParser();
    sse.push({ data: 'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"delta":{"content":"Hi"}}]}' });
    sse.push({ data: 'data: [DONE]' });
    expect(sse.end()).toEqual([
      {
        type: 'error',
        message:
          'The answer could not be read: it was not in Ollama\'s format (it began with "data: {"id":"c1","object":"chat.…"). Is the server at this address Ollama? Check its kind in Settings → Connections.',
      },
      { type: 'finish', wireReason: null, stop: 'error' },
    ]);
    const page = ollamaDialect.createParser();
    page.push({ data: '<!DOCTYPE html>' });
    expect(page.end()[0]).toMatchObject({ type: 'error', message: expect.stringContaining('(it began with a web page)') });
    // A connection that broke inside the first line: a cut, as before.
    const cut = ollamaDialect.createParser();
    cut.push({ data: '{"model":"llama3.2:3b","created_at":"2026-11-30T08:00:00Z","mess' });
    expect(cut.end()).toEqual([{ type: 'finish', wireReason: null, stop: 'cut' }]);
    // A garbled line amid Ollama's: skipped, the answer stands.
    const amid = ollamaDialect.createParser();
    amid.push({ data: ': keep-alive' });
    amid.push({ data: '{"message":{"role":"assistant","content":"a"},"done":false}' });
    amid.push({ data: '{"message":{"role":"assistant","content":""},"done_reason":"stop","done":true}' });
    expect(amid.end().filter((part) => part.type === 'error')).toEqual([]);
  });

  it('ignores lines after done, and end() is idempotent', () => {
    const p = ollamaDialect.createParser();
    p.push({ data: '{"message":{"role":"assistant","content":"a"},"done":false}' });
    p.push({ data: '{"message":{"role":"assistant","content":""},"done_reason":"stop","done":true}' });
    expect(p.push({ data: '{"message":{"role":"assistant","content":"late"},"done":false}' })).toEqual([]);
    const end = p.end();
    expect(end.at(-1)).toMatchObject({ type: 'finish', stop: 'end_turn', wireReason: 'stop' });
    expect(p.end()).toEqual([]);
  });

  it('passes through reasons it does not know (load)', () => {
    const p = ollamaDialect.createParser();
    p.push({ data: '{"model":"m","message":{"role":"assistant","content":""},"done_reason":"load","done":true}' });
    expect(p.end().at(-1)).toMatchObject({ type: 'finish', wireReason: 'load', stop: 'load' });
  });

  it('takes string arguments (some proxies) as the raw JSON text', () => {
    const p = ollamaDialect.createParser();
    const parts = p.push({ data: '{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":"{\\"a\\":1}"}}]},"done":false}' });
    expect(parts.at(-1)).toEqual({ type: 'tool-call-end', id: expect.any(String), state: 'complete', arguments: { a: 1 } });
  });
});
