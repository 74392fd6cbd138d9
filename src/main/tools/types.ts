import type { JsonValue } from '../../shared/json';
import type { AttachmentBlock, Turn } from '../../shared/turn';
import type { ToolSchema } from '../dialects/types';

/** What a tool may see while it runs: the conversation's turns (for attachments) and a cancel signal. */
export interface ToolContext {
  conversationId: string;
  /** The branch as sent in this step, root first. */
  history: readonly Turn[];
  signal: AbortSignal;
  /** An attachment's bytes by sha256 (the blob store). */
  readBlob: (digest: string) => Uint8Array | undefined;
  /** A document's extracted text (PDF pages marked `[page N]`), where it was read; undefined otherwise. */
  documentText?: (block: AttachmentBlock) => string | undefined;
  now: () => number;
  /** Stores an image a tool returned (the blob store); absent where images cannot be kept. */
  storeImage?: (bytes: Uint8Array, mime: string, name: string) => Promise<AttachmentBlock>;
  /** Progress the tool reports while it runs (MCP `notifications/progress`), for the call's card. */
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
}

/** A tool's answer; `isError` results are sent back so the model can correct itself. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
  /** What the user should see on the call's card about how the result was got (a redirect to another host). */
  note?: string;
  /** Images the tool returned, stored by reference like attachments; they ride in the tool turn. */
  images?: AttachmentBlock[];
}

/** One tool (built in, or an MCP server's): its schema (offered to the model) and how to run it with schema-valid arguments. */
export interface Tool {
  schema: ToolSchema;
  /** Whether the user must approve it per conversation before it runs (anything that reaches the network). */
  needsApproval: boolean;
  /** The MCP server it belongs to (the approval card names it); absent for built-in tools. */
  server?: string;
  /**
   * What "Allow in this chat" allows: the tool itself, whatever name it is offered under (an MCP tool: its server's
   * id and its own name). Absent: the offered name (built-in tools, whose names never change).
   */
  approvalKey?: string;
  /** Remembers "always allow" for this tool (MCP tools: the card's button and Settings → Tools). */
  allowAlways?(): void;
  /** A one-line description of a call for the approval card, e.g. the URL to fetch. */
  describeCall?(args: JsonValue): string;
  run(args: JsonValue, ctx: ToolContext): Promise<ToolOutcome>;
}

/**
 * A failure whose message already names the tool (and its server) and says why, e.g. "atlas could not run region:
 * …": the call's card and the model read it as it is, not under "region failed:", which said the tool twice.
 */
export class ToolFailure extends Error {}

export function toolError(content: string): ToolOutcome {
  return { content, isError: true };
}

export function argString(args: JsonValue, key: string): string | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const v = args[key];
  return typeof v === 'string' ? v : undefined;
}

export function argNumber(args: JsonValue, key: string): number | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const v = args[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
