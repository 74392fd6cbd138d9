import type { JsonObject, JsonValue } from '../../../shared/json';
import type { AttachmentBlock, Turn } from '../../../shared/turn';
import { materializerOf, type AttachmentMaterializer } from '../shared/materialize';
import type { EncodeInput } from '../types';

/** An image as a data URI; a document as its exact text (the pages the user chose), never cut here. */
function attachmentPart(block: AttachmentBlock, materialize: AttachmentMaterializer): JsonObject {
  const m = materialize(block);
  if (m.kind === 'image') return { type: 'image_url', image_url: { url: `data:${m.mime};base64,${m.base64}` } };
  return { type: 'text', text: m.text };
}

function textOf(turn: Turn): string {
  return turn.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** Arguments as the next request must carry them: llama-server's templates parse them, so invalid JSON becomes `{}`. */
function argumentsForWire(raw: string): string {
  try {
    JSON.parse(raw);
    return raw;
  } catch {
    return '{}';
  }
}

function userContent(turn: Turn, materialize: AttachmentMaterializer): JsonValue {
  const attachments = turn.blocks.filter((b): b is AttachmentBlock => b.type === 'attachment');
  const text = textOf(turn);
  if (attachments.length === 0) return text;
  const parts: JsonObject[] = [];
  if (text) parts.push({ type: 'text', text });
  for (const a of attachments) parts.push(attachmentPart(a, materialize));
  return parts;
}

function turnMessages(turn: Turn, materialize: AttachmentMaterializer): JsonObject[] {
  const out: JsonObject[] = [];
  if (turn.role === 'system') out.push({ role: 'system', content: textOf(turn) });
  else if (turn.role === 'user') {
    if (turn.blocks.some((b) => b.type === 'text' || b.type === 'attachment')) {
      out.push({ role: 'user', content: userContent(turn, materialize) });
    }
  } else if (turn.role === 'assistant') {
    // Reasoning is never sent back: it is the model's scratch work, and templates drop or mangle it.
    const calls: JsonObject[] = [];
    for (const b of turn.blocks) {
      if (b.type !== 'tool_call') continue;
      calls.push({ id: b.id, type: 'function', function: { name: b.name, arguments: argumentsForWire(b.argumentsRaw) } });
    }
    const text = textOf(turn);
    const message: JsonObject = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
    if (calls.length > 0) message['tool_calls'] = calls;
    out.push(message);
  }
  for (const b of turn.blocks) {
    if (b.type !== 'tool_result') continue;
    out.push({ role: 'tool', tool_call_id: b.toolCallId, content: b.isError && !b.content.startsWith('Error') ? `Error: ${b.content}` : b.content });
  }
  // A tool message carries text only: images a tool returned follow the results as one user message.
  const images = turn.role === 'tool' ? turn.blocks.filter((b): b is AttachmentBlock => b.type === 'attachment' && b.toolCallId !== undefined) : [];
  if (images.length > 0) {
    const calls = new Set(images.map((i) => i.toolCallId)).size;
    const intro = `The image${images.length > 1 ? 's' : ''} returned by the tool call${calls > 1 ? 's' : ''} above:`;
    out.push({ role: 'user', content: [{ type: 'text', text: intro }, ...images.map((i) => attachmentPart(i, materialize))] });
  }
  return out;
}

/** Turns -> a `/v1/chat/completions` body. Sampling params go first so that the fixed fields always win. */
export function encode(input: EncodeInput): JsonObject {
  const body: JsonObject = { ...(input.params ?? {}) };
  body['model'] = input.model;
  const materialize = materializerOf(input);
  body['messages'] = input.turns.flatMap((t) => turnMessages(t, materialize));
  body['stream'] = input.stream;
  if (input.stream) body['stream_options'] = { include_usage: true };
  if (input.tools && input.tools.length > 0) {
    body['tools'] = input.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  if (input.maxTokens !== undefined) body['max_tokens'] = input.maxTokens;
  // llama-server and vLLM read the template switch from chat_template_kwargs; sent only when asked for.
  if (input.think !== undefined) body['chat_template_kwargs'] = { enable_thinking: input.think };
  return body;
}
