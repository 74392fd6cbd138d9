/**
 * What scripted models say. A script is the exact text the model writes (tags included), whatever the prompt.
 * Tool calls are written the way the chat template renders them, so llama-server's parser (and its tool-call
 * grammar, which only admits the tools a request offers) reads them as calls.
 */

export interface Script {
  /** Short name: the model's file name and `general.name`. */
  name: string;
  /** Everything the model writes, in order, then end-of-turn. */
  text: string;
  /** Loop back to the start instead of ending: an answer that only a stop, a kill or the context ends. */
  repeat?: boolean;
}

/** How the Qwen3/Hermes template writes one call (the model sees this format in its system prompt). */
export function toolCallText(name: string, args: Record<string, unknown>): string {
  return `<tool_call>\n${pythonJson({ name, arguments: args })}\n</tool_call>`;
}

/** JSON with Python's separators (`, ` and `: `), as the template's `tojson` writes arguments. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

export const PLAIN_ANSWER = 'It is sunny in Paris today.';
export const REASONING = 'The user asks about the weather.';

/** The app's own tools (src/main/tools): a call to a tool the request does not offer is refused by the grammar. */
export const CALL_DATETIME = { name: 'current_datetime', arguments: { timezone: 'Europe/Paris' } } as const;
export const CALL_READ_DOCUMENT = { name: 'read_document', arguments: { name: 'notes.txt', start_line: 1, end_line: 2 } } as const;

/** Words for the endless answer: one loop is 24 unique pieces. */
const LONG_LOOP =
  'Counting sheep slowly: one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve, and then we start over again from the top. ';

export const SCRIPTS = {
  plain: { name: 'plain', text: PLAIN_ANSWER },
  reasoning: { name: 'reasoning', text: `<think>\n${REASONING}\n</think>\n\n${PLAIN_ANSWER}` },
  callDatetime: { name: 'call-datetime', text: toolCallText(CALL_DATETIME.name, CALL_DATETIME.arguments) },
  callReadDocument: { name: 'call-read-document', text: toolCallText(CALL_READ_DOCUMENT.name, CALL_READ_DOCUMENT.arguments) },
  twoCalls: {
    name: 'two-calls',
    text: `${toolCallText('current_datetime', { timezone: 'Europe/Paris' })}\n${toolCallText('current_datetime', { timezone: 'Asia/Tokyo' })}`,
  },
  reasoningThenCall: {
    name: 'reasoning-then-call',
    text: `<think>\nThe user wants the time.\n</think>\n\n${toolCallText(CALL_DATETIME.name, CALL_DATETIME.arguments)}`,
  },
  textThenCall: { name: 'text-then-call', text: `Let me look at the clock.\n${toolCallText(CALL_DATETIME.name, CALL_DATETIME.arguments)}` },
  unclosedThink: { name: 'unclosed-think', text: '<think>\nThe user asks about the weather and I keep wondering' },
  malformedCall: {
    name: 'malformed-call',
    text: '<tool_call>\n{"name": "current_datetime", "arguments": {"timezone": "Europe/Paris",}}\n</tool_call>',
  },
  long: { name: 'long', text: LONG_LOOP, repeat: true },
} as const satisfies Record<string, Script>;

/** A call to `fetch_url` for a page the test serves: the URL is part of the script, so the model is per URL. */
export function callFetchUrl(url: string): Script {
  return { name: 'call-fetch-url', text: toolCallText('fetch_url', { url }) };
}
