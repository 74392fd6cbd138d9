/**
 * Which other chat app wrote a file handed to Import, told by its shape: Firebrand reads only its own exports, and
 * "it is not a Firebrand conversation export" left a user with ChatGPT's conversations.json unsure whether that
 * file was damaged or was never going to be read (documents and import pass). Pure: a parsed JSON value in, a name out.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The app whose chat export `data` looks like ("another chat app" when only its shape says chats), or undefined. */
export function otherAppExport(data: unknown): string | undefined {
  const first: unknown = Array.isArray(data) ? data.find(isObject) : data;
  if (!isObject(first)) return undefined;
  // ChatGPT's conversations.json: a list of conversations, each a tree of messages under `mapping`.
  if (isObject(first.mapping) && ('current_node' in first || 'create_time' in first)) return 'ChatGPT';
  // Claude's export: a list of conversations, each with its `chat_messages`.
  if (Array.isArray(first.chat_messages)) return 'Claude';
  // Open WebUI's: a list of chats, each holding a `chat` with its `messages` or `history`.
  if (isObject(first.chat) && (Array.isArray(first.chat.messages) || isObject(first.chat.history))) return 'Open WebUI';
  // Any other list of chat messages (LM Studio, a script's own format).
  if (Array.isArray(first.messages) && first.messages.some((m) => isObject(m) && typeof m.role === 'string')) return 'another chat app';
  return undefined;
}

/** Why such a file is refused: what it is, and what Import does read. */
export function otherAppReason(app: string): string {
  return `it is a chat export from ${app}; Firebrand imports only its own .firebrand.json files, which Export and Export all save`;
}
