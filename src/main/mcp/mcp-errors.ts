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
