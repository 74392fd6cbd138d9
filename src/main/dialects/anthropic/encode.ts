import type { JsonObject, JsonValue } from '../../../shared/json';
import type { AttachmentBlock, Turn } from '../../../shared/turn';
import type { EncodeInput } from '../types';
import { materializerOf, type AttachmentMaterializer } from '../shared/materialize';

/** `max_tokens` is required by /v1/messages; this is used when Assemble sets none. */
export const DEFAULT_MAX_TOKENS = 4096;
/** The API's minimum thinking budget (https://docs.claude.com/en/docs/build-with-claude/extended-thinking). */
export const MIN_THINKING_BUDGET = 1024;
/** Sampling params /v1/messages accepts; it rejects unknown top-level fields, so nothing else is forwarded. */
const SAMPLING = ['temperature', 'top_p', 'top_k'] as const;

type Message = { role: 'user' | 'assistant'; content: JsonObject[] };

/**
 * Turns -> a `/v1/messages` body (https://docs.claude.com/en/api/messages).
 *
 * - System turns become the top-level `system` string; meta never leaves.
 * - With thinking on, reasoning Anthropic signed goes back as it came (`thinking` with its `signature`, or
 *   `redacted_thinking` with its data): a tool-use step's next request that leaves them out is refused ("a final
 *   assistant message must start with a thinking block"), and earlier ones the API drops itself. Reasoning
 *   with no signature (another model's, or a cut one) is never sent: unsigned thinking is refused.
 * - Tool results are `tool_result` blocks in a user message; adjacent same-role messages are merged because
 *   the API wants user/assistant alternation.
 * - Empty text blocks are dropped: the API rejects `text` blocks with empty text.
 * - With thinking on, `budget_tokens` is ≥ 1024 and below `max_tokens` (raised if needed), and
 *   temperature/top_k are not sent: the API refuses them together with thinking.
 */
export function encodeAnthropic(input: EncodeInput): JsonObject {
  const system: string[] = [];
  const messages: Message[] = [];
  const add = (role: Message['role'], content: JsonObject[]): void => {
    if (content.length === 0) return;
    const last = messages.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };
  const materialize = materializerOf(input);
  for (const turn of input.turns) {
    if (turn.role === 'system') {
      const text = textOf(turn);
      if (text) system.push(text);
      continue;
    }
    const { own, results } = encodeBlocks(turn, materialize, input.think === true);
    add(turn.role === 'assistant' ? 'assistant' : 'user', own);
    add('user', results);
  }

  let maxTokens = input.maxTokens ?? DEFAULT_MAX_TOKENS;
  const body: JsonObject = { model: input.model, max_tokens: maxTokens };
  if (system.length > 0) body.system = system.join('\n\n');
  body.messages = messages.map((m) => ({ role: m.role, content: m.content }));
  for (const key of SAMPLING) {
    const value = input.params?.[key];
    if (typeof value !== 'number') continue;
    if (input.think && key !== 'top_p') continue;
    body[key] = value;
  }
  if (input.think) {
    const asked = input.params?.thinking_budget;
    const budget = Math.max(MIN_THINKING_BUDGET, typeof asked === 'number' ? Math.floor(asked) : Math.floor(maxTokens / 2));
    if (maxTokens <= budget) maxTokens = budget + DEFAULT_MAX_TOKENS;
    body.max_tokens = maxTokens;
    body.thinking = { type: 'enabled', budget_tokens: budget };
  }
  if (input.tools && input.tools.length > 0) {
    body.tools = input.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  }
  body.stream = input.stream;
  return body;
}

function textOf(turn: Turn): string {
  let out = '';
  for (const b of turn.blocks) if (b.type === 'text') out += b.text;
  return out;
}

function attachmentContent(b: AttachmentBlock, materialize: AttachmentMaterializer): JsonObject {
  const m = materialize(b);
  return m.kind === 'image' ? { type: 'image', source: { type: 'base64', media_type: m.mime, data: m.base64 } } : { type: 'text', text: m.text };
}

function encodeBlocks(turn: Turn, materialize: AttachmentMaterializer, thinking: boolean): { own: JsonObject[]; results: JsonObject[] } {
  const own: JsonObject[] = [];
  const results: JsonObject[] = [];
  for (const b of turn.blocks) {
    switch (b.type) {
      case 'text':
        if (b.text.trim() !== '') own.push({ type: 'text', text: b.text });
        break;
      case 'attachment':
        // An image a tool returned goes inside its `tool_result` (tool results must lead their user message).
        if (b.toolCallId === undefined) own.push(attachmentContent(b, materialize));
        break;
      case 'tool_call':
        own.push({ type: 'tool_use', id: b.id, name: b.name, input: inputObject(b.arguments, b.argumentsRaw) });
        break;
      case 'tool_result': {
        const images = turn.blocks.filter((i): i is AttachmentBlock => i.type === 'attachment' && i.toolCallId === b.toolCallId);
        const content: JsonValue = images.length === 0 ? b.content : [{ type: 'text', text: b.content }, ...images.map((i) => attachmentContent(i, materialize))];
        results.push({ type: 'tool_result', tool_use_id: b.toolCallId, content, ...(b.isError ? { is_error: true } : {}) });
        break;
      }
      case 'reasoning':
        if (!thinking || turn.role !== 'assistant') break;
        if (b.redacted !== undefined) own.push({ type: 'redacted_thinking', data: b.redacted });
        else if (b.signature !== undefined) own.push({ type: 'thinking', thinking: b.text, signature: b.signature });
        break;
    }
  }
  return { own, results };
}

/** `input` must be an object; an invalid call carries what parsed, else `{}` (its error result follows). */
function inputObject(parsed: JsonValue | undefined, raw: string): JsonObject {
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as JsonObject;
  } catch {
    // Not repaired: the model reads the error result instead.
  }
  return {};
}
