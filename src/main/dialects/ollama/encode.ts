import type { JsonObject, JsonValue } from '../../../shared/json';
import type { Block, ToolCallBlock, Turn } from '../../../shared/turn';
import type { EncodeInput } from '../types';
import { materializerOf, type AttachmentMaterializer } from '../shared/materialize';

/**
 * Turns -> an Ollama `/api/chat` body (https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion).
 *
 * - Reasoning blocks are never sent back: they are the model's scratchpad, and resending them as content would
 *   teach the model to answer with think tags.
 * - Tool results go as `role: "tool"` messages naming `tool_name` (the documented field; ids are ours, Ollama
 *   gave none).
 * - `truncate: false` rides with an explicit `num_ctx`: Ollama's ChatRequest has `Truncate *bool` ("truncates
 *   the chat history if the prompt exceeds context length"); with it false an over-long prompt is an error
 *   instead of a silent loss of the conversation's start (DESIGN.md §2). Older servers ignore the unknown field
 *   (Go's encoding/json drops unknown keys), so sending it is safe everywhere.
 */
export function encodeOllama(input: EncodeInput): JsonObject {
  const messages: JsonValue[] = [];
  const materialize = materializerOf(input);
  for (const turn of input.turns) messages.push(...encodeTurn(turn, materialize));

  const body: JsonObject = { model: input.model, messages, stream: input.stream };
  if (input.think !== undefined) body.think = input.think;
  if (input.tools && input.tools.length > 0) {
    body.tools = input.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  // Explicit fields win over free-form params: the context window is decided by Assemble, not by a preset.
  const options: JsonObject = { ...(input.params ?? {}) };
  if (input.contextWindow !== undefined) options.num_ctx = input.contextWindow;
  if (input.maxTokens !== undefined) options.num_predict = input.maxTokens;
  body.options = options;
  if (input.contextWindow !== undefined) body.truncate = false;
  return body;
}

function textOf(blocks: Block[]): string {
  let out = '';
  for (const b of blocks) if (b.type === 'text') out += b.text;
  return out;
}

function encodeTurn(turn: Turn, materialize: AttachmentMaterializer): JsonObject[] {
  const out: JsonObject[] = [];
  // Tool results become their own `tool` messages wherever they sit (normally in a `tool` turn).
  const results = turn.blocks.filter((b) => b.type === 'tool_result');
  if (turn.role === 'tool') {
    // Images a tool returned ride on its result's message (Ollama reads `images` on any message).
    for (const r of results) {
      const images = turn.blocks.flatMap((b) => (b.type === 'attachment' && b.toolCallId === r.toolCallId ? [materialize(b)] : [])).flatMap((m) => (m.kind === 'image' ? [m.base64] : []));
      out.push({ role: 'tool', content: r.content, tool_name: r.name, ...(images.length > 0 ? { images } : {}) });
    }
    return out;
  }
  if (turn.role === 'system') {
    const text = textOf(turn.blocks);
    return text ? [{ role: 'system', content: text }] : [];
  }
  if (turn.role === 'assistant') {
    const msg: JsonObject = { role: 'assistant', content: textOf(turn.blocks) };
    const calls = turn.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call');
    if (calls.length > 0) {
      msg.tool_calls = calls.map((c) => ({ function: { name: c.name, arguments: argumentsObject(c) } }));
    }
    out.push(msg);
  } else {
    let content = textOf(turn.blocks);
    const images: string[] = [];
    for (const b of turn.blocks) {
      if (b.type !== 'attachment') continue;
      const m = materialize(b);
      if (m.kind === 'image') images.push(m.base64);
      else content = content ? `${content}\n\n${m.text}` : m.text;
    }
    const msg: JsonObject = { role: 'user', content };
    if (images.length > 0) msg.images = images;
    out.push(msg);
  }
  for (const r of results) out.push({ role: 'tool', content: r.content, tool_name: r.name });
  return out;
}

/**
 * Ollama's `arguments` is a JSON object on the wire (Go `map[string]any`): a string there is a 400. An invalid
 * or truncated call still has to appear (its error result follows it), so it carries what parsed, else `{}`.
 */
function argumentsObject(call: ToolCallBlock): JsonObject {
  const fromParsed = call.arguments;
  if (fromParsed && typeof fromParsed === 'object' && !Array.isArray(fromParsed)) return fromParsed;
  try {
    const v: unknown = JSON.parse(call.argumentsRaw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as JsonObject;
  } catch {
    // The model's broken JSON is not repaired: the error result tells it what went wrong.
  }
  return {};
}
