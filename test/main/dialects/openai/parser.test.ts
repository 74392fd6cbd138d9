import { describe, expect, it } from 'vitest';
import { OpenAiParser } from '../../../../src/main/dialects/openai/parser';
import { openaiDialect } from '../../../../src/main/dialects/openai/index';
import type { StreamPart } from '../../../../src/shared/parts';

const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
  data: JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }], ...extra }),
});
function run(events: { event?: string; data: string }[], options = {}): StreamPart[] {
  const p = new OpenAiParser(options);
  return [...events.flatMap((e) => p.push(e)), ...p.end()];
}
const finish = (parts: StreamPart[]) => parts.find((p) => p.type === 'finish');

describe('OpenAiParser', () => {
  it('orders a mixed chunk: reasoning, then content, then tool calls', () => {
    const parts = run([
      chunk({ reasoning_content: 'think', content: 'say', tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(parts.map((p) => p.type)).toEqual([
      'reasoning-start', 'reasoning-delta', 'reasoning-end', 'text-start', 'text-delta', 'text-end',
      'tool-call-start', 'tool-call-delta', 'tool-call-end', 'finish',
    ]);
    expect(finish(parts)).toEqual({ type: 'finish', wireReason: 'tool_calls', stop: 'tool_use' });
  });

  it('a later index closes the earlier call before the new one starts', () => {
    const parts = run([
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"x":1}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'g', arguments: '{' } }] }),
    ]);
    const types = parts.map((p) => p.type);
    expect(types.indexOf('tool-call-end')).toBeLessThan(types.lastIndexOf('tool-call-start'));
    // No terminal frame: cut, and the open second call is truncated.
    expect(parts.filter((p) => p.type === 'tool-call-end').map((p) => (p.type === 'tool-call-end' ? p.state : ''))).toEqual(['complete', 'truncated']);
    expect(finish(parts)?.stop).toBe('cut');
  });

  it('[DONE] without a finish_reason is still cut', () => {
    expect(finish(run([chunk({ content: 'hi' }), { data: '[DONE]' }]))).toEqual({ type: 'finish', wireReason: null, stop: 'cut' });
  });

  it('validates against the tools offered', () => {
    const tools = [{ name: 'f', description: '', parameters: { type: 'object', required: ['x'] } }];
    const parts = run([chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] }), chunk({}, 'stop')], { tools });
    const end = parts.find((p) => p.type === 'tool-call-end');
    expect(end).toMatchObject({ state: 'invalid' });
    expect(end && 'error' in end ? end.error : '').toContain('x is required but was not given');
  });

  it('an error envelope is an error part with the message, then finish error; later events are ignored', () => {
    const parts = run([chunk({ content: 'a' }), { data: '{"error":{"message":"boom","type":"server_error"}}' }, chunk({ content: 'b' }, 'stop')]);
    expect(parts.find((p) => p.type === 'error')).toEqual({ type: 'error', message: 'boom', code: 'server_error' });
    expect(finish(parts)?.stop).toBe('error');
    expect(parts.filter((p) => p.type === 'text-delta')).toHaveLength(1);
  });

  it('a plain-text `event: error` is an error too', () => {
    expect(run([{ event: 'error', data: 'upstream closed' }]).find((p) => p.type === 'error')).toEqual({ type: 'error', message: 'upstream closed' });
  });

  it('normalizes usage and timings (usage wins for tokens, timings give times and the tokens read from cache)', () => {
    const parts = run([
      chunk({}, 'stop', { timings: { prompt_n: 1, cache_n: 57, predicted_n: 11, prompt_ms: 2, predicted_ms: 3 } }),
      { data: JSON.stringify({ choices: [], usage: { prompt_tokens: 60, completion_tokens: 12 } }) },
    ]);
    expect(finish(parts)).toEqual({ type: 'finish', wireReason: 'stop', stop: 'end_turn', usage: { inputTokens: 60, outputTokens: 12, cachedTokens: 57, promptMs: 2, generationMs: 3, generatedTokens: 10 } });
  });

  it('an inline think opened by the template is reasoning when thinkOpen', () => {
    const parts = run([chunk({ content: 'plan</think>answer' }), chunk({}, 'stop')], { thinkOpen: true });
    expect(parts.find((p) => p.type === 'reasoning-start')).toMatchObject({ origin: 'inline' });
  });

  it('ignores a half-written last line', () => {
    expect(finish(run([chunk({ content: 'x' }), { data: '{"choices":[{"del' }]))?.stop).toBe('cut');
  });
});

describe('openaiDialect.errorMessage', () => {
  it('names n_prompt_tokens and n_ctx for llama-server context overflow', () => {
    const body = '{"error":{"code":400,"message":"request (1276 tokens) exceeds the available context size (256 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":1276,"n_ctx":256}}';
    const msg = openaiDialect.errorMessage(400, body);
    expect(msg).toContain('n_prompt_tokens=1276');
    expect(msg).toContain('n_ctx=256');
  });
  it('falls back to the text, then the status', () => {
    expect(openaiDialect.errorMessage(502, 'Bad Gateway')).toBe('Bad Gateway (HTTP 502)');
    expect(openaiDialect.errorMessage(500, '')).toContain('HTTP 500');
    expect(openaiDialect.errorMessage(401, '{"error":{"message":"Invalid API key"}}')).toBe('Invalid API key (HTTP 401)');
  });
  // A proxy's page in front of a server that is down was shown as its markup ("<html> <head><title>502 Bad …").
  it('names a web page by its title, never by its markup, and says what its status means', () => {
    const nginx = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n';
    expect(openaiDialect.errorMessage(502, nginx)).toBe(
      'The server answered HTTP 502 with a web page ("502 Bad Gateway"): a proxy in front of it got no answer from it. Is the server running?',
    );
    expect(openaiDialect.errorMessage(503, '<!DOCTYPE html><html><body><h1>Service <b>Unavailable</b></h1></body></html>')).toBe(
      'The server answered HTTP 503 with a web page ("Service Unavailable"): it is not ready (loading a model, or busy). Try again in a moment.',
    );
    expect(openaiDialect.errorMessage(401, '<html><head><title>Sign in &amp; go</title></head></html>')).toBe(
      'The server answered HTTP 401 with a web page ("Sign in & go"): it refused the request. Check the API key in Settings → Connections.',
    );
    expect(openaiDialect.errorMessage(500, '')).toBe('The server answered HTTP 500: it failed while answering. Try again; if it goes on, see its log.');
  });
});
