/**
 * A GGUF's own chat template (`tokenizer.chat_template`), rendered as `llama-server --jinja` renders it
 * (common_chat_template_direct_apply in llama.cpp): `messages`, `tools` (only when there are some),
 * `bos_token`, `eos_token`, `enable_thinking`, the `datetime`/`date_string` extras, `chat_template_kwargs`, and
 * `add_generation_prompt`; a leading BOS is cut when the tokenizer adds its own. What the template can do is
 * found the way llama.cpp finds it: by rendering probes and looking at the output, never from model names.
 */
import { Template } from '@huggingface/jinja';
import { templateMessages, templateTools, type TemplateMessage } from './template-messages';

/** llama.cpp's fallback when a GGUF has no template (CHATML_TEMPLATE_SRC). */
export const CHATML_TEMPLATE =
  "{%- for message in messages -%}\n  {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' -}}\n{%- endfor -%}\n{%- if add_generation_prompt -%}\n  {{- '<|im_start|>assistant\\n' -}}\n{%- endif -%}";

export interface TemplateTokens {
  bosToken: string;
  eosToken: string;
  /** The tokenizer adds BOS itself (`tokenizer.ggml.add_bos_token`). */
  addBos: boolean;
  addEos: boolean;
}

/** What the template can do, found by rendering probes. */
export interface TemplateCaps {
  systemRole: boolean;
  /** Tool-call arguments go in as objects (the template serializes them itself). */
  objectArguments: boolean;
  /** The template describes tools to the model. */
  tools: boolean;
  /** The model writes calls as `<tool_call>{"name", "arguments"}</tool_call>` (Hermes, Qwen): the format read back. */
  toolCallFormat: 'hermes' | null;
  /** The template renders reasoning or switches it with `enable_thinking`. */
  thinking: boolean;
}

export interface RenderInput {
  /** Messages of a `/v1/chat/completions` body. */
  messages: unknown;
  tools?: unknown;
  /** `chat_template_kwargs` of the body (`enable_thinking`, `reasoning_effort`...). */
  kwargs?: Record<string, unknown>;
  now?: Date;
}

export interface Rendered {
  prompt: string;
  enableThinking: boolean;
}

const NEEDLE_TOOL = 'firebrand_probe_tool';

export class ChatTemplate {
  private readonly template: Template;
  private cachedCaps: TemplateCaps | null = null;

  constructor(
    readonly source: string,
    readonly tokens: TemplateTokens,
  ) {
    this.template = new Template(source);
  }

  get caps(): TemplateCaps {
    this.cachedCaps ??= probeCaps(this);
    return this.cachedCaps;
  }

  /** The raw template render (no caps-driven rewriting); undefined when the template throws. */
  tryRender(context: Record<string, unknown>): string | undefined {
    try {
      return this.template.render({ bos_token: this.tokens.bosToken, eos_token: this.tokens.eosToken, ...context });
    } catch {
      return undefined;
    }
  }

  render(input: RenderInput): Rendered {
    const caps = this.caps;
    const messages: TemplateMessage[] = templateMessages(input.messages, caps);
    const tools = templateTools(input.tools);
    const kwargs = input.kwargs ?? {};
    // llama-server: thinking is on by default wherever the template supports it; the request's kwarg wins.
    const enableThinking = typeof kwargs['enable_thinking'] === 'boolean' ? kwargs['enable_thinking'] : caps.thinking;
    const now = input.now ?? new Date();
    const context: Record<string, unknown> = {
      messages,
      enable_thinking: enableThinking,
      ...(tools ? { tools } : {}),
      datetime: strftime(now, 'b d Y'),
      date_string: strftime(now, 'd b Y'),
      ...kwargs,
      add_generation_prompt: true,
    };
    let prompt = this.template.render({ bos_token: this.tokens.bosToken, eos_token: this.tokens.eosToken, ...context });
    if (this.tokens.addBos && this.tokens.bosToken !== '' && prompt.startsWith(this.tokens.bosToken)) prompt = prompt.slice(this.tokens.bosToken.length);
    if (this.tokens.addEos && this.tokens.eosToken !== '' && prompt.endsWith(this.tokens.eosToken)) prompt = prompt.slice(0, -this.tokens.eosToken.length);
    // A generation prompt that opens a think block while thinking is off gets it closed, as llama-server does.
    if (!enableThinking && prompt.trimEnd().endsWith('<think>')) prompt += '</think>';
    return { prompt, enableThinking };
  }
}

function probeCaps(t: ChatTemplate): TemplateCaps {
  const sys = t.tryRender({ messages: [{ role: 'system', content: 'SYSTEM_NEEDLE' }, { role: 'user', content: 'Hey' }], add_generation_prompt: true });
  const systemRole = sys?.includes('SYSTEM_NEEDLE') ?? false;

  const tool = { type: 'function', function: { name: NEEDLE_TOOL, description: 'd', parameters: { type: 'object', properties: { arg: { type: 'string' } } } } };
  const withTools = t.tryRender({ messages: [{ role: 'user', content: 'Hey' }], tools: [tool], add_generation_prompt: true });
  const tools = withTools?.includes(NEEDLE_TOOL) ?? false;

  const callMessages = (args: unknown) => [
    { role: 'user', content: 'Hey' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: NEEDLE_TOOL, arguments: args } }] },
    { role: 'tool', content: 'RESULT_NEEDLE', tool_call_id: 'call_1' },
  ];
  const objectRender = t.tryRender({ messages: callMessages({ arg: 'value' }), tools: [tool], add_generation_prompt: true });
  const objectArguments = objectRender?.includes('"arg": "value"') ?? false;
  const callRender = objectArguments ? objectRender : t.tryRender({ messages: callMessages('{"arg": "value"}'), tools: [tool], add_generation_prompt: true });
  const toolCallFormat = tools && callRender !== undefined && /<tool_call>\s*\{"name": "firebrand_probe_tool"/.test(callRender) ? 'hermes' : null;

  return { systemRole, objectArguments, tools, toolCallFormat, thinking: probeThinking(t) };
}

/**
 * llama.cpp's two reasoning probes: an assistant message's `reasoning_content` shows up in the render (tried
 * after a user message too, which templates like Qwen3's need), or `enable_thinking` changes the generation
 * prompt by a tag.
 */
function probeThinking(t: ChatTemplate): boolean {
  const reasoning = { role: 'assistant', content: 'CONTENT_MARKER', reasoning_content: 'THOUGHT_MARKER' };
  for (const before of [[], [{ role: 'user', content: 'Hello' }]]) {
    const out = t.tryRender({ messages: [...before, reasoning] });
    if (out !== undefined && out.includes('THOUGHT_MARKER') && out.indexOf('THOUGHT_MARKER') < out.indexOf('CONTENT_MARKER')) return true;
  }
  const user = [{ role: 'user', content: 'Hello' }];
  const on = t.tryRender({ messages: user, add_generation_prompt: true, enable_thinking: true });
  const off = t.tryRender({ messages: user, add_generation_prompt: true, enable_thinking: false });
  if (on === undefined || off === undefined || on === off) return false;
  let i = 0;
  while (i < on.length && i < off.length && on[i] === off[i]) i++;
  const diff = on.length > off.length ? on.slice(i) : off.slice(i);
  return diff.includes('<') || diff.includes('[');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The two strftime formats llama.cpp puts in the context: `%b %d %Y` and `%d %b %Y` (local time). */
function strftime(date: Date, format: 'b d Y' | 'd b Y'): string {
  const b = MONTHS[date.getMonth()] ?? '';
  const d = String(date.getDate()).padStart(2, '0');
  const y = String(date.getFullYear());
  return format === 'b d Y' ? `${b} ${d} ${y}` : `${d} ${b} ${y}`;
}
