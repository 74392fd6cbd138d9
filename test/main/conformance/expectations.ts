import type { ReplayResult } from '../../../src/main/cli/replay';

/** What each stream must replay to, taken from its `.md` note (conformance) or fixture note (test/fixtures/openai). */
export type Expectation = Partial<Omit<ReplayResult, 'usage' | 'tool_calls' | 'invalid_calls'>> & {
  usage?: ReplayResult['usage'];
  tool_calls?: { name: string; arguments: unknown; id?: string }[];
  invalid_calls?: { name: string; error: RegExp }[];
  thinkOpen?: boolean;
};

const plain = { content: 'Hello! The weather in Paris is sunny today.', reasoning: '', wire_reason: 'stop', stop: 'end_turn', error: null, tool_calls: [], invalid_calls: [] };
const reasoned = { content: 'It is sunny.', wire_reason: 'stop', stop: 'end_turn', error: null, tool_calls: [] };
const toolCall = (id: string) => ({ content: '', reasoning: '', wire_reason: 'tool_calls', stop: 'tool_use', tool_calls: [{ id, name: 'get_weather', arguments: { city: 'Paris' } }], invalid_calls: [] });
const overflow = { stop: 'error', wire_reason: null, content: '', error: "The prompt is too long for the server's context window: n_prompt_tokens=1276 exceeds n_ctx=256. Shorten the conversation or restart llama-server with a larger context (-c)." };

/** conformance/llama-server/<name>: every chat capture there (.sse and the nostream .json). */
export const LLAMA_SERVER: Record<string, Expectation> = {
  'a-plain-stream-deepseek.sse': { ...plain, usage: { input_tokens: 58, output_tokens: 11 } },
  'a-plain-stream-none.sse': { ...plain, usage: { input_tokens: 58, output_tokens: 11 } },
  'a-plain-nostream-deepseek.json': { ...plain, usage: { input_tokens: 58, output_tokens: 11 } },
  // Server-parsed reasoning keeps its trailing newline (no tag was consumed, so no drain trim).
  'b-reasoning-stream-deepseek.sse': { ...reasoned, reasoning: 'The user asks about weather.\n', runs: [{ kind: 'reasoning', text: 'The user asks about weather.\n' }, { kind: 'text', text: 'It is sunny.' }], usage: { input_tokens: 58, output_tokens: 13 } },
  'b-reasoning-nostream-deepseek.json': { ...reasoned, reasoning: 'The user asks about weather.\n', usage: { input_tokens: 58, output_tokens: 13 } },
  // Inline `<think>` passthrough: the splitter extracts it and the drain trims tag residue at the edges.
  'b-reasoning-stream-none.sse': { ...reasoned, reasoning: 'The user asks about weather.', runs: [{ kind: 'reasoning', text: 'The user asks about weather.' }, { kind: 'text', text: 'It is sunny.' }], usage: { input_tokens: 58, output_tokens: 13 } },
  'b-reasoning-nostream-none.json': { ...reasoned, reasoning: 'The user asks about weather.', usage: { input_tokens: 58, output_tokens: 13 } },
  'c-toolcall-stream-deepseek.sse': { ...toolCall('HMjTg63ggoFz6RoahMyZnxTFW8a2Z7HT'), usage: { input_tokens: 761, output_tokens: 10 } },
  'c-toolcall-nostream-deepseek.json': { ...toolCall('MDePqWQofz4nVXgSERkJ8EDJ9687y0Ik'), usage: { input_tokens: 761, output_tokens: 10 } },
  'context-overflow-stream-deepseek.sse': { ...overflow, usage: { input_tokens: null, output_tokens: null } },
  'context-overflow-nostream-deepseek.json': { ...overflow, usage: { input_tokens: null, output_tokens: null } },
  'stream-options-usage-stream-deepseek.sse': { ...plain, usage: { input_tokens: 58, output_tokens: 11 } },
};

/** test/fixtures/openai/<name>.sse, each with a `.md` note naming where the behaviour comes from. */
export const OPENAI_FIXTURES: Record<string, Expectation> = {
  'parallel-tool-calls': {
    stop: 'tool_use', wire_reason: 'tool_calls', content: '', invalid_calls: [], usage: { input_tokens: 120, output_tokens: 40 },
    tool_calls: [{ id: 'call_a1', name: 'get_weather', arguments: { city: 'Paris' } }, { id: 'call_b2', name: 'get_weather', arguments: { city: 'Tokyo' } }],
  },
  'fragmented-args-empty-first': { stop: 'tool_use', tool_calls: [{ id: 'call_x9', name: 'get_weather', arguments: { city: 'Paris' } }], invalid_calls: [] },
  // Firebrand's own vocabulary (issue 16): one invalid call and every block closed is `end_turn` on every dialect;
  // the vendor's `tool_calls` stays beside it as the wire reason.
  'invalid-json-args': { stop: 'end_turn', wire_reason: 'tool_calls', tool_calls: [], invalid_calls: [{ name: 'get_weather', error: /^Arguments for get_weather are not valid JSON: / }] },
  'length-in-tool-call': { stop: 'max_tokens', wire_reason: 'length', content: 'Let me check.', tool_calls: [], invalid_calls: [{ name: 'get_weather', error: /cut off before its arguments were complete/ }] },
  'error-before-first-token': { stop: 'error', wire_reason: null, content: '', error: 'Failed to parse input: the chat template could not be applied' },
  'error-after-tokens': { stop: 'error', content: 'The weather in Paris', error: 'slot context shift failed' },
  'no-terminal-frame': { stop: 'cut', wire_reason: null, content: 'The weather in Paris is', error: null },
  'done-without-finish': { stop: 'cut', wire_reason: null, content: 'Partial answer' },
  'think-open-template': { thinkOpen: true, stop: 'end_turn', reasoning: 'The user wants the weather.', content: 'It is sunny in Paris.' },
  'delta-reasoning': { stop: 'end_turn', reasoning: 'Weather question; answer briefly.', content: 'It is sunny in Paris. ☀️', usage: { input_tokens: 120, output_tokens: 40 } },
  // A real llama-server's stream (the note gives the build and the scripted model): reasoning, then markdown.
  'llama-server-speed': {
    stop: 'end_turn', wire_reason: 'stop', reasoning: 'The user wants a summary with code.\n', usage: { input_tokens: 48, output_tokens: 36 },
    content: '## Result\n\nHere is a **table**:\n\n|Name|Value|\n|---|---|\n|alpha|1|\n|beta|2|\n\n1. first item\n2. second with `inline`\n\n```python\ndef hello():\n    return 42\n```\n\nDone.',
  },
  'comments-crlf': { stop: 'end_turn', content: 'Grüße aus Köln — 日本', reasoning: '' },
  'event-error': { stop: 'error', error: 'model is loading', content: '' },
  // llama.cpp builds of 2025: the error rides in a non-standard `error:` SSE field, then `data: [DONE]`.
  'legacy-error-field': {
    stop: 'error', wire_reason: null, content: '', reasoning: '', tool_calls: [], invalid_calls: [],
    error: 'the request exceeds the available context size. try increasing the context size or enable context shift',
  },
  // The last argument fragment arrives after `finish_reason`: accepted until the stream ends, judged at the end.
  'args-after-finish': {
    stop: 'tool_use', wire_reason: 'tool_calls', content: '', invalid_calls: [],
    tool_calls: [{ id: 'call_af1', name: 'get_weather', arguments: { city: 'Paris' } }],
  },
};

/**
 * conformance/llama-server captures replayed as if the rendered prompt had ended inside `<think>` (think-open).
 * Think-open applies only to text the server did not already separate: with `--reasoning-format deepseek` the
 * server moved the reasoning into `reasoning_content`, so the `content` after it is the answer.
 */
export const LLAMA_SERVER_THINK_OPEN: Record<string, Expectation> = {
  'b-reasoning-stream-deepseek.sse': { ...reasoned, thinkOpen: true, reasoning: 'The user asks about weather.\n', runs: [{ kind: 'reasoning', text: 'The user asks about weather.\n' }, { kind: 'text', text: 'It is sunny.' }] },
  'b-reasoning-nostream-deepseek.json': { ...reasoned, thinkOpen: true, reasoning: 'The user asks about weather.\n' },
};
