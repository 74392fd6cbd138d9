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
