/**
 * The messages a chat template sees, built from a `/v1/chat/completions` body the way llama-server builds them
 * (common_chat_msgs_parse_oaicompat, to_json_oaicompat and the workarounds of common_chat_templates_apply_jinja
 * in llama.cpp's common/chat.cpp): the same body renders to the same prompt here and under `llama-server --jinja`.
 */
type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface TemplateMessage {
  role: string;
  content: string;
  reasoning_content?: string;
  name?: string;
  tool_call_id?: string;
  tool_calls?: { type: 'function'; function: { name: string; arguments: unknown }; id?: string }[];
}

/** What the template's shape asks of its messages (its capabilities). */
export interface MessageShape {
  systemRole: boolean;
  objectArguments: boolean;
}

/** A body message -> the template's message; text parts are joined with newlines, as llama-server does. */
function toTemplateMessage(m: Rec): TemplateMessage {
  const out: TemplateMessage = { role: typeof m['role'] === 'string' ? m['role'] : 'user', content: '' };
  const content = m['content'];
  if (typeof content === 'string') out.content = content;
  else if (Array.isArray(content)) {
    out.content = content
      .filter(isRec)
      .map((p) => (p['type'] === 'text' && typeof p['text'] === 'string' ? p['text'] : ''))
      .filter((t) => t !== '')
      .join('\n');
  }
  if (typeof m['reasoning_content'] === 'string' && m['reasoning_content'] !== '') out.reasoning_content = m['reasoning_content'];
  if (typeof m['name'] === 'string' && m['name'] !== '') out.name = m['name'];
  if (typeof m['tool_call_id'] === 'string' && m['tool_call_id'] !== '') out.tool_call_id = m['tool_call_id'];
  const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'].filter(isRec) : [];
  if (calls.length > 0) {
    out.tool_calls = calls.map((c) => {
      const fn = isRec(c['function']) ? c['function'] : {};
      const args = fn['arguments'];
      const call: NonNullable<TemplateMessage['tool_calls']>[number] = {
        type: 'function',
        function: { name: typeof fn['name'] === 'string' ? fn['name'] : '', arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) },
      };
      if (typeof c['id'] === 'string' && c['id'] !== '') call.id = c['id'];
      return call;
    });
  }
  return out;
}

export function templateMessages(bodyMessages: unknown, shape: MessageShape): TemplateMessage[] {
  const messages = (Array.isArray(bodyMessages) ? bodyMessages : []).filter(isRec).map(toTemplateMessage);
  if (!shape.systemRole) mergeSystemIntoNext(messages);
  if (shape.objectArguments) {
    for (const m of messages) {
      for (const call of m.tool_calls ?? []) {
        const raw = call.function.arguments;
        if (typeof raw !== 'string') continue;
        try {
          call.function.arguments = JSON.parse(raw) as unknown;
        } catch {
          // llama-server refuses such a body; Firebrand only sends arguments that parse (encode turns others to {}).
          call.function.arguments = {};
        }
      }
    }
  }
  return messages;
}

/** A template without a system role: the system text goes in front of the next message (or is dropped). */
function mergeSystemIntoNext(messages: TemplateMessage[]): void {
  const first = messages[0];
  if (first?.role !== 'system') return;
  const next = messages[1];
  if (next) next.content = `${first.content}\n${next.content}`;
  messages.shift();
}

/** The tools as the template gets them (`{type, function: {name, description, parameters}}`); none: absent. */
export function templateTools(bodyTools: unknown): Rec[] | undefined {
  if (!Array.isArray(bodyTools) || bodyTools.length === 0) return undefined;
  return bodyTools.filter(isRec).map((t) => {
    const fn = isRec(t['function']) ? t['function'] : {};
    return {
      type: 'function',
      function: {
        name: fn['name'],
        description: typeof fn['description'] === 'string' ? fn['description'] : '',
        parameters: isRec(fn['parameters']) ? fn['parameters'] : {},
      },
    };
  });
}
