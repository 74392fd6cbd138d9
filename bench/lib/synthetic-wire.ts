/**
 * Synthetic responses of any length in each dialect's real wire shape (see test/fixtures and
 * ../shared/conformance): inline think tags, native reasoning, answer text and tool calls, one token per event.
 */
import type { DialectId } from '../../src/main/dialects/types';

const WORDS = ['the', ' model', ' streams', ' a', ' long', ' answer', ' with', ' `code`', ' and', ' **bold**', ' text', '.\n\n', ' | a | b |', '\n- item', ' é', ' 🚀'];

function word(i: number): string {
  return WORDS[i % WORDS.length]!;
}

/** Returns the wire body and the number of token events in it. */
export function syntheticResponse(dialect: DialectId, tokens: number): { body: string; tokens: number } {
  const native = Math.floor(tokens * 0.1);
  const inline = Math.floor(tokens * 0.1);
  const text = tokens - native - inline - 2;
  const out: string[] = [];
  if (dialect === 'ollama') {
    const line = (message: object, done = false) => `${JSON.stringify({ model: 'm', created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', ...message }, done })}\n`;
    for (let i = 0; i < native; i++) out.push(line({ content: '', thinking: word(i) }));
    out.push(line({ content: '<think>' }));
    for (let i = 0; i < inline; i++) out.push(line({ content: word(i) }));
    out.push(line({ content: '</think>' }));
    for (let i = 0; i < text; i++) out.push(line({ content: word(i) }));
    out.push(line({ content: '', tool_calls: [{ function: { name: 'current_datetime', arguments: {} } }] }));
    out.push(`${JSON.stringify({ model: 'm', created_at: 'x', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 10, eval_count: tokens })}\n`);
  } else if (dialect === 'openai') {
    const ev = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    for (let i = 0; i < native; i++) out.push(ev({ reasoning_content: word(i) }));
    out.push(ev({ content: '<think>' }));
    for (let i = 0; i < inline; i++) out.push(ev({ content: word(i) }));
    out.push(ev({ content: '</think>' }));
    for (let i = 0; i < text; i++) out.push(ev({ content: word(i) }));
    out.push(ev({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'current_datetime', arguments: '' } }] }));
    out.push(ev({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }));
    out.push(ev({}, 'tool_calls'));
    out.push('data: [DONE]\n\n');
  } else {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    out.push(ev('message_start', { message: { id: 'msg', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 10, output_tokens: 1 } } }));
    out.push(ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }));
    for (let i = 0; i < native; i++) out.push(ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: word(i) } }));
    out.push(ev('content_block_stop', { index: 0 }));
    out.push(ev('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }));
    out.push(ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text: '<think>' } }));
    for (let i = 0; i < inline; i++) out.push(ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text: word(i) } }));
    out.push(ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text: '</think>' } }));
    for (let i = 0; i < text; i++) out.push(ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text: word(i) } }));
    out.push(ev('content_block_stop', { index: 1 }));
    out.push(ev('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'current_datetime', input: {} } }));
    out.push(ev('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{}' } }));
    out.push(ev('content_block_stop', { index: 2 }));
    out.push(ev('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: tokens } }));
    out.push(ev('message_stop', {}));
  }
  return { body: out.join(''), tokens };
}

/** Cuts bytes into network-sized chunks. */
export function* chunks(bytes: Uint8Array, size = 16 * 1024): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export async function* asAsync(it: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* it;
}
