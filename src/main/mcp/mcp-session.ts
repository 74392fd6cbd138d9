/**
 * One live connection to an MCP server through the official SDK's client (issue 19): stdio through the process
 * group transport, http as Streamable HTTP with the older HTTP+SSE transport as the fallback the SDK documents
 * (a server that refuses the POST of `initialize` is asked again over SSE). It knows nothing of Firebrand's tools
 * or state: src/main/mcp/mcp-server-host.ts owns the lifecycle.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  AudioContentSchema,
  CallToolResultSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  ResourceLinkSchema,
  ResultSchema,
  TextContentSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool as McpToolDef,
} from '@modelcontextprotocol/sdk/types.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, statSync } from 'node:fs';
import { issueWords, mcpMessageOf, messageOf, networkMessageOf, type SchemaIssue } from './mcp-errors';
import { LogTail } from './log-tail';
import { NOT_MCP_QUIET_MS, notMcpHint, printedNoise, printedWords } from './not-mcp';
import { ProcessGroupStdioTransport, type ExitInfo } from './process-group-transport';

export type { CallToolResult, McpToolDef };

/** What one session needs, secrets resolved: it lives only in memory, for as long as the connection. */
export interface SessionConfig {
  transport: 'stdio' | 'http';
  command: string;
  args: string[];
  cwd: string;
  /** What the user configured; the SDK's safe defaults (PATH, HOME, …) are added under it when the program starts. */
  env: Record<string, string>;
  url: string;
  headers: Record<string, string>;
  /** Bounds `initialize` and the first `tools/list`: a server that never answers fails instead of hanging. */
  timeoutMs: number;
}

export interface SessionHooks {
  /** Text for the log tail: stderr, and stdout lines that were not protocol messages. */
  log(text: string): void;
  /** The connection ended without being asked to (the process exited, the transport failed). */
  closed(why: string): void;
  toolsChanged(): void;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
}

const CLIENT_INFO = { name: 'firebrand', version: '0.1.0' };

export class McpSession {
  private closing = false;

  private constructor(
    private readonly client: Client,
    private readonly transport: Transport,
    readonly protocol: 'stdio' | 'streamable-http' | 'sse',
  ) {}

  /**
   * Connects (starting the program for stdio) and completes `initialize`; rejects with why it could not. An abort
   * (the server was stopped or Firebrand quits while it starts) ends the attempt and its process.
   */
  static async open(config: SessionConfig, hooks: SessionHooks, signal?: AbortSignal): Promise<McpSession> {
    if (config.transport === 'stdio') return McpSession.openStdio(config, hooks, signal);
    return McpSession.openHttp(config, hooks, signal);
  }

  private static async openStdio(config: SessionConfig, hooks: SessionHooks, signal?: AbortSignal): Promise<McpSession> {
    const transport = new ProcessGroupStdioTransport({ command: config.command, args: config.args, cwd: config.cwd, env: { ...getDefaultEnvironment(), ...config.env } });
    // Its stderr alone, for a reason that quotes its stdout already.
    const stderr = new LogTail();
    let quiet: NodeJS.Timeout | undefined;
    transport.onLog = (text, stream) => {
      hooks.log(text);
      if (stream !== 'stderr') return;
      stderr.append(text);
      // Still busy (a loader's progress on stderr after a banner on stdout): its silence starts again.
      if (quiet !== undefined) transport.onStdout?.();
    };
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const session = new McpSession(client, transport, 'stdio');
    let exit: ExitInfo | undefined;
    transport.onExit = (e) => (exit = e);
    client.onclose = () => {
      if (!session.closing) hooks.closed(exitWords(exit));
    };
    // A program that printed lines that are not messages, and then nothing for a moment, does not speak MCP: it
    // fails then, where it said "Starting…" until the start timeout (mcpstart #1). One that prints a banner and then
    // answers `initialize` never falls silent before its first message.
    const notMcp = new AbortController();
    transport.onStdout = () => {
      clearTimeout(quiet);
      quiet = undefined;
      if (transport.received > 0) return;
      quiet = setTimeout(() => {
        if (transport.received === 0 && printedNoise(transport.noise, transport.partialLine)) notMcp.abort(new Error('The server does not speak MCP.'));
      }, NOT_MCP_QUIET_MS);
    };
    try {
      await connectUnlessAborted(client, transport, config.timeoutMs, signal ? AbortSignal.any([signal, notMcp.signal]) : notMcp.signal);
    } catch (err) {
      session.closing = true;
      // Why, before our own stop ends the process (a timeout must not read as "ended by SIGTERM").
      const notSpoken = signal?.aborted ? undefined : notMcpFailure(transport, exit ?? transport.exit, stderr);
      const why = notSpoken ?? startFailure(err, exit ?? transport.exit, config);
      await transport.close().catch(() => undefined);
      // The reason quotes what it printed, and its stderr: the host adds no "last words" of its own.
      throw Object.assign(new Error(why), { quotesLog: notSpoken !== undefined });
    } finally {
      clearTimeout(quiet);
      transport.onStdout = undefined;
    }
    session.watchTools(hooks);
    return session;
  }

  private static async openHttp(config: SessionConfig, hooks: SessionHooks, signal?: AbortSignal): Promise<McpSession> {
    const url = new URL(config.url);
    const requestInit = { headers: config.headers };
    const attempt = async (transport: Transport, protocol: 'streamable-http' | 'sse') => {
      const client = new Client(CLIENT_INFO, { capabilities: {} });
      const session = new McpSession(client, transport, protocol);
      client.onclose = () => {
        if (!session.closing) hooks.closed('The connection to the server closed.');
      };
      try {
        await connectUnlessAborted(client, transport, config.timeoutMs, signal);
      } catch (err) {
        session.closing = true;
        await transport.close().catch(() => undefined);
        throw err;
      }
      session.watchTools(hooks);
      return session;
    };
    try {
      return await attempt(new StreamableHTTPClientTransport(url, { requestInit }), 'streamable-http');
    } catch (first) {
      if (signal?.aborted) throw first;
      // The SDK's documented fallback: a server of the older protocol answers the POST with a 4xx (or not at
      // all); ask it over SSE. If that fails too, the first error is the one that explains more.
      try {
        return await attempt(new SSEClientTransport(url, { requestInit }), 'sse');
      } catch {
        throw new Error(`${config.url} did not answer as an MCP server: ${networkMessageOf(first)}`);
      }
    }
  }

  /** The server's tools, every page of them. */
  async listTools(timeoutMs: number): Promise<McpToolDef[]> {
    const tools: McpToolDef[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await this.client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
      tools.push(...res.tools);
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /**
   * Calls a tool. An abort sends `notifications/cancelled` to the server (the SDK does, from the signal); so does
   * the timeout, which every progress notification starts again.
   */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const result = (await this.client.callTool({ name, arguments: args }, LENIENT_RESULT, {
      signal: options.signal,
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      ...(options.onProgress ? { onprogress: (p: { progress: number; total?: number; message?: string }) => options.onProgress?.(p) } : {}),
    })) as Omit<CallToolResult, 'content'> & { content: unknown[] };
    return { ...result, content: result.content.map(readablePart) };
  }

  /** Closes politely (stdio: stdin, SIGTERM to the group, SIGKILL after a grace); resolves once it is gone. */
  async close(): Promise<void> {
    this.closing = true;
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }

  /** The program's process id (stdio), for tests and diagnostics. */
  get pid(): number | undefined {
    return this.transport instanceof ProcessGroupStdioTransport ? this.transport.pid : undefined;
  }

  private watchTools(hooks: SessionHooks): void {
    if (!this.client.getServerCapabilities()?.tools?.listChanged) return;
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => hooks.toolsChanged());
  }
}

/**
 * A call's result with its parts checked one by one, not as a whole: the SDK's own schema refused the whole answer
 * for one image whose data was not base64, and the card showed the zod error's JSON dump where the server's text
 * was (tools audit, mcp2 #1). Each part that does not pass is said in words in its place; the rest stands.
 */
const LENIENT_RESULT = CallToolResultSchema.extend({ content: ResultSchema.array().default([]) }) as unknown as typeof CallToolResultSchema;

type Part = CallToolResult['content'][number];

/** Each kind of part, with its schema and its name in words. */
const PARTS: Record<string, [{ safeParse(v: unknown): { success: true; data: unknown } | { success: false; error: { issues: unknown[] } } }, string]> = {
  text: [TextContentSchema, 'a text'],
  image: [ImageContentSchema, 'an image'],
  audio: [AudioContentSchema, 'an audio clip'],
  resource_link: [ResourceLinkSchema, 'a resource link'],
  resource: [EmbeddedResourceSchema, 'a resource'],
};

function readablePart(part: unknown): Part {
  const type = (part as { type?: unknown } | null)?.type;
  const known = typeof type === 'string' && Object.hasOwn(PARTS, type) ? PARTS[type] : undefined;
  if (!known) return { type: 'text', text: `[The server sent a part of a kind Firebrand does not know (“${String(type).slice(0, 40)}”); it was left out]` };
  const [schema, what] = known;
  const parsed = schema.safeParse(part);
  if (parsed.success) return parsed.data as Part;
  const issues = parsed.error.issues as SchemaIssue[];
  const why = JSON.stringify(issues).includes('Invalid Base64 string') ? 'its data is not valid base64' : issueWords(issues);
  return { type: 'text', text: `[The server sent ${what} that could not be read (${why}); it was left out]` };
}

/** `client.connect` with the request's signal: `initialize` is cancelled and the attempt rejects on abort. */
async function connectUnlessAborted(client: Client, transport: Transport, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  await client.connect(transport, { timeout: timeoutMs, ...(signal ? { signal } : {}) });
}

function exitWords(exit: ExitInfo | undefined): string {
  if (!exit) return 'The server closed its output.';
  if (exit.signal) return `The server was ended by ${exit.signal}.`;
  return `The server exited with code ${exit.code ?? '?'}.`;
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * A command with spaces is most often a whole command line typed into the command box ("npx -y some-server
 * /home/me/notes", as READMEs write it): the program is its first word, and the rest belongs under Arguments.
 */
function noSuchProgram(command: string): string {
  const words = command.trim().split(/\s+/);
  if (words.length < 2) return 'no such program (is it installed and on the PATH?).';
  return `no such program. The command is the program alone (here “${words[0]}”); its arguments go under Arguments, one per line.`;
}

/**
 * Why a program that printed only lines that are not messages failed to start, quoting them (and its stderr's
 * telling line); undefined where it spoke MCP or printed nothing on stdout.
 */
function notMcpFailure(transport: ProcessGroupStdioTransport, exit: ExitInfo | undefined, stderr: LogTail): string | undefined {
  const partial = transport.partialLine;
  if (transport.received > 0 || !printedNoise(transport.noise, partial)) return undefined;
  const unended = partial.trim() === '' ? [] : [partial];
  const printed = printedWords([...transport.noise, ...unended], transport.noiseLines + unended.length);
  const last = stderr.tellingLine();
  const lastWords = last ? ` Its last words: ${last}${/[.!?…:]$/.test(last) ? '' : '.'}` : '';
  if (exit) return `${exitWords(exit).replace(/\.$/, '')} while starting, without speaking MCP: it printed ${printed}.${lastWords}`;
  return `The server does not speak MCP: it printed ${printed} where MCP’s messages go, and no message.${lastWords} ${notMcpHint(transport.noise)}`;
}

function startFailure(err: unknown, exit: ExitInfo | undefined, config: SessionConfig): string {
  const code = (err as { code?: unknown } | null)?.code;
  // Node's spawn says ENOENT (or ENOTDIR) for a missing working folder as for a missing program.
  if ((code === 'ENOENT' || code === 'ENOTDIR') && !isFolder(config.cwd)) {
    return `Could not start “${config.command}”: its working folder “${config.cwd}” ${existsSync(config.cwd) ? 'is not a folder' : 'does not exist'}.`;
  }
  if (code === 'ENOENT') return `Could not start “${config.command}”: ${noSuchProgram(config.command)}`;
  if (code === 'EACCES') return `Could not start “${config.command}”: permission denied.`;
  if (exit) return `${exitWords(exit).replace(/\.$/, '')} while starting.`;
  if ((err as { name?: unknown } | null)?.name === 'AbortError') return 'Stopped while starting.';
  if (/timed out/i.test(messageOf(err))) return `The server did not answer within ${Math.round(config.timeoutMs / 1000)} s of starting.`;
  return `The server could not start: ${mcpMessageOf(err)}`;
}

