/**
 * One configured MCP server's life (issue 19): started when first needed (a call, a tool list nobody has yet, the
 * user's Restart, or at launch when the user asked), its state for Settings (starting, ready, failed with the
 * server's own stderr tail, stopped), restarted after a crash with backoff, each call bounded by its timeout, and
 * stopped with the app. A server that hangs, prints garbage or exits mid-call ends that call with an error the
 * model and the user can read; it never blocks the chat.
 */
import type { McpServerState } from '../../shared/mcp';
import { LogTail } from './log-tail';
import { readableLine } from './not-mcp';
import { MCP_CONNECTION_CLOSED, MCP_REQUEST_TIMEOUT, issueWords, mcpErrorCode, mcpMessageOf, zodIssues } from './mcp-errors';
// The session (and the SDK under it) loads with the first server started: see mcp-errors.ts.
import type { CallOptions, CallToolResult, McpSession, McpToolDef, SessionConfig } from './mcp-session';

/** Pauses before each automatic restart after a crash; after the last, it waits for a call or the user. */
export const RESTART_BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000] as const;
/** A server up this long before it crashed counts as healthy: its backoff starts over. */
const HEALTHY_MS = 60_000;
/**
 * While a server starts, Settings is told of what it writes at most this often: a program that logs a line per
 * millisecond while it loads must not send the whole server list to the window as often. The first line goes at once.
 */
const START_LOG_EMIT_MS = 200;

/**
 * Why the user stopped a server, for a call it ends: the call said only "the connection closed" when an edit in
 * Settings restarted the server under it (tools audit #2).
 */
export type StopReason = 'edited' | 'restarted' | 'removed' | 'disabled';

const STOPPED_BY: Record<StopReason, string> = {
  edited: 'was restarted by the user to apply its changed settings',
  restarted: 'was restarted by the user',
  removed: 'was removed by the user',
  disabled: 'was turned off by the user',
};

export interface HostDeps {
  /** The server's name, for messages. */
  name(): string;
  /** What to start, secrets resolved; read at each start. */
  sessionConfig(): SessionConfig;
  timeoutMs(): number;
  /** The tools the server listed (the manager keeps them). */
  listed(tools: McpToolDef[], protocol: McpSession['protocol']): void;
  /** State, error or tools changed. */
  changed(): void;
  now(): number;
}

export class McpServerHost {
  state: McpServerState = 'stopped';
  error: string | null = null;
  /** What the server wrote, across its starts and restarts: Settings' "Server log". */
  readonly tail = new LogTail();
  /**
   * What the process now running (or the last one) wrote: the line Settings shows while it starts, and the words a
   * failure quotes. A restarted server's reason quoted the run before's "Error: missing API key" after the key was
   * set, where the new run printed something else or nothing.
   */
  private readonly runLog = new LogTail(2000, 12);
  private logEmit: NodeJS.Timeout | undefined;
  private logUnsent = false;
  private session: McpSession | undefined;
  private starting: Promise<McpSession> | undefined;
  private attempt: AbortController | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private crashes = 0;
  private readyAt = 0;
  /** Sessions the user stopped, and why: a call they end says so. */
  private readonly stoppedBy = new WeakMap<McpSession, StopReason>();

  constructor(private readonly deps: HostDeps) {}

  /** The running program's pid (stdio), for tests. */
  get pid(): number | undefined {
    return this.session?.pid;
  }

  /**
   * While it starts, the last line the program wrote so far (stderr, or stdout that was not a message), readable;
   * null otherwise. A program that says "Error: missing API key" and waits is seen saying so at once, where the
   * row read only "Starting…" until the start timeout: nothing else tells such a program from a slow one.
   */
  get startingLine(): string | null {
    if (this.state !== 'starting') return null;
    return readableLine(this.runLog.lastLine()) || null;
  }

  /** Starts the server unless it runs or is starting; resolves when it is ready, rejects with why it is not. */
  start(): Promise<McpSession> {
    if (this.session) return Promise.resolve(this.session);
    if (this.starting) return this.starting;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const attempt = new AbortController();
    this.attempt = attempt;
    this.runLog.clear();
    this.set('starting', null);
    const run = async (): Promise<McpSession> => {
      const config = this.deps.sessionConfig();
      let live: McpSession | undefined;
      const { McpSession: Session } = await import('./mcp-session');
      const session = await Session.open(
        config,
        {
          log: (text) => {
            this.tail.append(text);
            // A start that was given up on (stopped, restarted) has no say in the run after it.
            if (attempt !== this.attempt) return;
            this.runLog.append(text);
            this.logged();
          },
          // Only the session in use may report its end: one that failed while starting reports by rejecting.
          closed: (why) => live !== undefined && live === this.session && this.crashed(why),
          toolsChanged: () => void this.relist(),
        },
        attempt.signal,
      );
      try {
        const tools = await session.listTools(config.timeoutMs).catch((err: unknown) => {
          throw new Error(`The server started but could not list its tools: ${mcpMessageOf(err)}`);
        });
        if (attempt.signal.aborted) throw new Error('Stopped while starting.');
        live = session;
        this.session = session;
        this.readyAt = this.deps.now();
        this.deps.listed(tools, session.protocol);
        this.set('ready', null);
        return session;
      } catch (err) {
        await session.close();
        throw err;
      }
    };
    const started = run();
    this.starting = started;
    started
      .catch((err: unknown) => {
        if (attempt.signal.aborted) return;
        // A reason that quotes what the server printed already says its last words.
        const quotesLog = (err as { quotesLog?: unknown } | null)?.quotesLog === true;
        this.set('failed', quotesLog ? mcpMessageOf(err) : this.withStderr(mcpMessageOf(err)));
      })
      .finally(() => {
        if (this.starting === started) this.starting = undefined;
      });
    return started;
  }

  /** Stops it (disabled, removed, restarted, Firebrand quitting); resolves once its process is gone. */
  async stop(reason?: StopReason): Promise<void> {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.attempt?.abort();
    const session = this.session;
    if (session && reason) this.stoppedBy.set(session, reason);
    this.session = undefined;
    this.starting = undefined;
    this.crashes = 0;
    if (this.state !== 'stopped') this.set('stopped', null);
    await session?.close();
  }

  /** Stops and starts it again now (Settings → Restart); a failed start says why in the state. */
  async restart(): Promise<void> {
    await this.stop('restarted');
    await this.start().catch(() => undefined);
  }

  /**
   * Calls a tool, starting the server if it is not running. Rejects with a message written for the model (and
   * shown on the card): why it could not start, that it timed out, that it exited mid-call, or what it said.
   */
  async call(tool: string, args: Record<string, unknown>, options: Omit<CallOptions, 'timeoutMs'>): Promise<CallToolResult> {
    const session = await this.ready(options.signal, tool);
    const timeoutMs = this.deps.timeoutMs();
    try {
      return await session.callTool(tool, args, { ...options, timeoutMs });
    } catch (err) {
      // Read now: the server may have been renamed while the call ran (a rename no longer restarts it).
      const name = this.deps.name();
      if (options.signal.aborted) throw new Error(`Stopped by the user; ${name} was asked to cancel the call.`);
      const stoppedBy = this.stoppedBy.get(session);
      if (stoppedBy) throw new Error(`${name} ${STOPPED_BY[stoppedBy]} while ${tool} ran, so the call did not finish.`);
      const code = mcpErrorCode(err);
      if (code === MCP_REQUEST_TIMEOUT) throw new Error(`${name} did not answer ${tool} within ${Math.round(timeoutMs / 1000)} s; the call was cancelled.`);
      if (code === MCP_CONNECTION_CLOSED) throw new Error(`${name} stopped while ${tool} ran: ${this.error ?? 'the connection closed.'}`);
      const issues = zodIssues(err);
      if (issues) throw new Error(`${name} sent an answer to ${tool} that could not be read: ${issueWords(issues)}.`);
      throw new Error(`${name} could not run ${tool}: ${mcpMessageOf(err)}`);
    }
  }

  /** Makes the tool list known: starts the server (bounded by its timeout); a failure shows in its state. */
  async list(signal: AbortSignal): Promise<void> {
    if (this.session || this.state === 'failed') return;
    await raceAbort(this.start(), signal).catch(() => undefined);
  }

  private async ready(signal: AbortSignal, tool: string): Promise<McpSession> {
    const name = this.deps.name();
    if (this.session) return this.session;
    // Within the back-off after a crash, a call starts the server now (start() drops the scheduled restart): it
    // failed at once, "is not running", though the server would have come back a moment later (tools audit #7).
    try {
      return await raceAbort(this.start(), signal);
    } catch (err) {
      if (signal.aborted) throw new Error(`Stopped by the user while ${name} was starting.`);
      // The state's error carries the server's last stderr line: the model and the user read the same reason.
      throw new Error(`${name} could not start, so ${tool} did not run: ${this.state === 'failed' && this.error ? this.error : mcpMessageOf(err)}`);
    }
  }

  private crashed(why: string): void {
    this.session = undefined;
    if (this.deps.now() - this.readyAt >= HEALTHY_MS) this.crashes = 0;
    this.set('failed', this.withStderr(why));
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = RESTART_BACKOFF_MS[this.crashes];
    if (delay === undefined) {
      // Given up for now: the next call, or the user's Restart, tries again.
      return;
    }
    this.crashes++;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.start().catch(() => this.scheduleRestart());
    }, delay);
    this.restartTimer.unref();
  }

  private async relist(): Promise<void> {
    const session = this.session;
    if (!session) return;
    try {
      this.deps.listed(await session.listTools(this.deps.timeoutMs()), session.protocol);
      this.deps.changed();
    } catch {
      // The old list stays; a call to a tool that went away gets the server's own error.
    }
  }

  /** Settings hears of a starting server's new line now, or once the last emit is START_LOG_EMIT_MS old. */
  private logged(): void {
    if (this.state !== 'starting') return;
    if (this.logEmit) {
      this.logUnsent = true;
      return;
    }
    this.deps.changed();
    this.logEmit = setTimeout(() => {
      this.logEmit = undefined;
      if (!this.logUnsent) return;
      this.logUnsent = false;
      this.logged();
    }, START_LOG_EMIT_MS);
    this.logEmit.unref();
  }

  private withStderr(message: string): string {
    const last = this.runLog.tellingLine();
    // A full stop of its own: the words ran into the sentence after them ("…crash hard Firebrand starts…").
    return last && !message.includes(last) ? `${message} Its last words: ${last}${/[.!?…:]$/.test(last) ? '' : '.'}` : message;
  }

  private set(state: McpServerState, error: string | null): void {
    this.state = state;
    this.error = error;
    this.deps.changed();
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
