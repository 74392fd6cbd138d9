import { describe, expect, it } from 'vitest';
import { ChatTemplate, CHATML_TEMPLATE } from '../../../src/main/builtin/prompt/chat-template';
import { CHATML_TOOLS_THINK_TEMPLATE } from '../../support/scripted-gguf/chat-template';

const tokens = { bosToken: '<s>', eosToken: '<|im_end|>', addBos: false, addEos: false };
const tool = { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

/** A Gemma-like template: no system role (llama-server merges the system text into the next message). */
const NO_SYSTEM = "{%- for m in messages -%}{%- if m.role == 'system' -%}{{ raise_exception('System role not supported') }}{%- endif -%}<start_of_turn>{{ m.role }}\n{{ m.content }}<end_of_turn>\n{%- endfor -%}{%- if add_generation_prompt -%}<start_of_turn>model\n{%- endif -%}";

/** A Llama-3.1-like template: tools described, but calls written as JSON after <|python_tag|>, a format Firebrand does not read. */
const PYTHON_TAG = "{{ bos_token }}{%- if tools %}Tools: {% for t in tools %}{{ t | tojson }}{% endfor %}{%- endif %}{%- for m in messages %}<|start_header_id|>{{ m.role }}<|end_header_id|>\n\n{%- if m.tool_calls %}<|python_tag|>{{ m.tool_calls[0].function | tojson }}{%- else %}{{ m.content }}{%- endif %}<|eot_id|>{%- endfor %}{%- if add_generation_prompt %}<|start_header_id|>assistant<|end_header_id|>\n\n{%- endif %}";

describe('chat templates: what they can do, found by rendering (as llama.cpp does)', () => {
  it('the Qwen3/Hermes template: system role, tools, Hermes calls read back, object arguments, thinking', () => {
    expect(new ChatTemplate(CHATML_TOOLS_THINK_TEMPLATE, tokens).caps).toEqual({ systemRole: true, objectArguments: true, tools: true, toolCallFormat: 'hermes', thinking: true });
  });

  it('llama.cpp’s ChatML fallback (a GGUF without a template): no tools, no thinking', () => {
    expect(new ChatTemplate(CHATML_TEMPLATE, tokens).caps).toMatchObject({ systemRole: true, tools: false, toolCallFormat: null, thinking: false });
  });

  it('a template without a system role gets the system text in front of the first message, as llama-server does', () => {
    const t = new ChatTemplate(NO_SYSTEM, tokens);
    expect(t.caps.systemRole).toBe(false);
    const { prompt } = t.render({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] });
    expect(prompt).toBe('<start_of_turn>user\nBe brief.\nHi<end_of_turn><start_of_turn>model');
  });

  it('tools a template describes but whose calls Firebrand cannot read are not offered', () => {
    const caps = new ChatTemplate(PYTHON_TAG, tokens).caps;
    expect(caps.tools).toBe(true);
    expect(caps.toolCallFormat).toBeNull();
  });

  it('renders thinking on by default where the template supports it; enable_thinking=false pre-fills an empty block', () => {
    const t = new ChatTemplate(CHATML_TOOLS_THINK_TEMPLATE, tokens);
    const on = t.render({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(on).toEqual({ prompt: '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n', enableThinking: true });
    const off = t.render({ messages: [{ role: 'user', content: 'Hi' }], kwargs: { enable_thinking: false } });
    expect(off.prompt.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n')).toBe(true);
  });

  it('cuts a leading BOS the tokenizer adds itself, and lists tools with Python-style JSON', () => {
    const t = new ChatTemplate(PYTHON_TAG, { ...tokens, addBos: true });
    const { prompt } = t.render({ messages: [{ role: 'user', content: 'Hi' }], tools: [tool] });
    expect(prompt.startsWith('<s>')).toBe(false);
    expect(prompt).toContain('{"type": "function", "function": {"name": "get_weather", "description": "Weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}');
  });
});
