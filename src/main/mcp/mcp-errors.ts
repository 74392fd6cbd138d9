/**
 * What the MCP code needs of errors without loading the SDK: `@modelcontextprotocol/sdk/types.js` (and zod under
 * it) takes about a tenth of a second to load, so it loads with the first server started, not with the app
 * (bench/start). The two codes are the SDK's `ErrorCode.ConnectionClosed` and `ErrorCode.RequestTimeout`.
 */
export const MCP_CONNECTION_CLOSED = -32000;
export const MCP_REQUEST_TIMEOUT = -32001;

/** The JSON-RPC code of an SDK `McpError`; undefined for any other error. */
export function mcpErrorCode(err: unknown): number | undefined {
  if (!(err instanceof Error) || err.name !== 'McpError') return undefined;
  const code = (err as Error & { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The SDK's "MCP error -32602: " before a message, as many times as it is there: a server built on the SDK that
 * throws an `McpError` sends its message with the prefix, and the client's `McpError` adds it again, so the card
 * read "MCP error -32602: MCP error -32602: Unknown tool".
 */
export function withoutMcpPrefix(message: string): string {
  return message.replace(/^(?:\s*MCP error -?\d+:\s*)+/, '');
}

/**
 * Why a request failed, in the server's own words once: without the SDK's code prefixes, and where a schema refused
 * an answer (the server's SDK refusing its own tool's result, or the client's refusing what arrived), what was wrong
 * with it in words, where the message was a JSON dump of zod's issues.
 */
export function mcpMessageOf(err: unknown): string {
  const issues = zodIssues(err);
  if (issues) return `its answer could not be read: ${issueWords(issues)}.`;
  const message = withoutMcpPrefix(messageOf(err));
  // The SDK's Server checks a tool's result before sending it: "Invalid tools/call result: [{…zod issues…}]".
  const dump = /^Invalid ([\w/]+) result: (\[[\s\S]*\])\s*$/.exec(message);
  const dumped = dump ? parsedIssues(dump[2] as string) : undefined;
  if (dumped) return `the server could not send its result, because ${issueWords(dumped)}.`;
  return message;
}

export interface SchemaIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** The issues of a zod error (by its shape: zod is the SDK's, not loaded here), or undefined. */
export function zodIssues(err: unknown): SchemaIssue[] | undefined {
  if (!(err instanceof Error) || err.name !== 'ZodError') return undefined;
  const issues = (err as Error & { issues?: unknown }).issues;
  return Array.isArray(issues) ? (issues as SchemaIssue[]) : undefined;
}

function parsedIssues(json: string): SchemaIssue[] | undefined {
  try {
    const issues: unknown = JSON.parse(json);
    return Array.isArray(issues) && issues.length > 0 && issues.every((i) => typeof (i as SchemaIssue | null)?.message === 'string') ? (issues as SchemaIssue[]) : undefined;
  } catch {
    return undefined;
  }
}

const FIELD_WORDS: Record<string, string> = { data: 'an image or audio clip', blob: 'a resource', text: 'a text', uri: 'a resource' };

/** One issue in words: "part 2 (an image or audio clip) could not be read: its data is not valid base64". */
function issueWord(issue: SchemaIssue): string {
  const path = (Array.isArray(issue.path) ? issue.path : []).map(String);
  const reason = issue.message === 'Invalid Base64 string' ? 'its data is not valid base64' : issue.message;
  if (path[0] === 'content' && /^\d+$/.test(path[1] ?? '')) {
    const what = FIELD_WORDS[path.at(-1) ?? ''];
    return `part ${Number(path[1]) + 1}${what ? ` (${what})` : ''} could not be read: ${reason}`;
  }
  return path.length === 0 ? reason : `${path.join(' ')}: ${reason}`;
}

/** At most three issues in words, joined by semicolons. */
export function issueWords(issues: readonly SchemaIssue[]): string {
  const words = issues.slice(0, 3).map(issueWord);
  return `${words.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`;
}

/** Socket errors a URL server fails with, in words: undici says only "fetch failed" (tools audit #8). */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused: nothing is listening at that address. Check that the server is running and the port is right.',
  ENOTFOUND: 'no computer of that name was found. Check the address.',
  EAI_AGAIN: 'the name of that computer could not be looked up. Check the address and the network.',
  ETIMEDOUT: 'the connection timed out. Check the address and the network.',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out. Check the address and the network.',
  ECONNRESET: 'the connection was reset by the other side.',
  EHOSTUNREACH: 'that computer cannot be reached from here. Check the address and the network.',
};

/** Why a request failed, saying what the socket said where the message is only "fetch failed". */
export function networkMessageOf(err: unknown): string {
  const code = socketCode(err, 0);
  return (code !== undefined ? NETWORK_REASONS[code] : undefined) ?? messageOf(err);
}

function socketCode(err: unknown, depth: number): string | undefined {
  if (depth > 5 || typeof err !== 'object' || err === null) return undefined;
  const o = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof o.code === 'string' && o.code in NETWORK_REASONS) return o.code;
  const inner = [o.cause, ...(Array.isArray(o.errors) ? (o.errors as unknown[]) : [])];
  for (const e of inner) {
    const code = socketCode(e, depth + 1);
    if (code !== undefined) return code;
  }
  return undefined;
}
