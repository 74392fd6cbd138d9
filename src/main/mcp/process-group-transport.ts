/**
 * The MCP stdio transport, with the server in its own process group (issue 19: none outlives the app). The SDK's
 * StdioClientTransport kills only the program it started; servers are often started through `npx`, `uvx` or a
 * shell, whose children would survive that. Here the server leads a new process group (POSIX `detached`), and
 * stopping it signals the whole group; on Windows `taskkill /T` ends the tree. Messages are framed as the SDK
 * frames them (one JSON-RPC message per line), with the SDK's own schema; a line that is not a message goes to
 * the server's log tail instead of failing the session, since a server that prints garbage should end no more
 * than the call waiting for it (by its timeout). Until the first message, those lines are also kept (the first
 * few) for the session's start: a program that prints only them does not speak MCP (mcp-session.ts).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
// cross-spawn, as the SDK's own stdio transport uses: on Windows it finds `npx.cmd` and quotes arguments the way
// cmd.exe needs; elsewhere it is plain spawn.
import spawn from 'cross-spawn';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { liveGroups } from './live-processes';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface StdioServerParams {
  command: string;
  args: string[];
  cwd: string;
  /** The whole environment the server gets: nothing of Firebrand's own is inherited beyond it. */
  env: Record<string, string>;
}

/** How the process ended: what the user is told when a server exits unasked. */
export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

/** A message line longer than this ends the session: a server flooding one line would otherwise hold memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Lines printed before the first message that are kept to be quoted; the rest are counted. */
const KEPT_NOISE_LINES = 5;

/** Grace between the polite stop (stdin closed, SIGTERM) and SIGKILL. */
export const KILL_GRACE_MS = 2000;

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Lines that are not protocol messages, and everything on stderr. */
  onLog?: (text: string, stream: 'stdout' | 'stderr') => void;
  /** The process ended (before `onclose`). */
  onExit?: (exit: ExitInfo) => void;
  /** Anything arrived on stdout (a message, a line that is not one, or part of a line). */
  onStdout?: () => void;
  /** Messages received so far. */
  received = 0;
  /** The first lines on stdout that were not messages, while no message had come yet (500 characters each). */
  readonly noise: string[] = [];
  /** How many such lines there were, the kept ones included. */
  noiseLines = 0;

  private child: ChildProcess | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private exited: ExitInfo | undefined;
  private killTimer: NodeJS.Timeout | undefined;

  constructor(private readonly params: StdioServerParams) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get exit(): ExitInfo | undefined {
    return this.exited;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('This transport was started already.');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        cwd: this.params.cwd,
        env: this.params.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // Its own process group on POSIX, so a stop reaches its children too; no console window on Windows.
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      liveGroups.add(this);
      child.once('error', (err) => {
        liveGroups.delete(this);
        reject(err);
        this.onerror?.(err);
      });
      child.once('spawn', () => resolve());
      child.once('exit', (code, signal) => {
        this.exited = { code, signal };
        // Its children (a shell's, npx's) hold the pipes open and would never let 'close' come: they go now.
        this.signalGroup('SIGKILL');
        this.onExit?.(this.exited);
      });
      child.once('close', () => {
        liveGroups.delete(this);
        clearTimeout(this.killTimer);
        this.onclose?.();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.on('data', (chunk: Buffer) => this.onLog?.(chunk.toString('utf8'), 'stderr'));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed || this.exited) return reject(new Error('The server is not running.'));
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** The polite stop: stdin closed and SIGTERM to the group, SIGKILL after a grace; resolves once it is gone. */
  close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('close', () => resolve());
      child.stdin?.end();
      this.signalGroup('SIGTERM');
      this.killTimer = setTimeout(() => this.signalGroup('SIGKILL'), KILL_GRACE_MS);
      this.killTimer.unref();
    });
  }

  /** The start of a line not ended yet (at most 500 bytes of it), as text. */
  get partialLine(): string {
    return Buffer.concat(this.pending).subarray(0, 500).toString('utf8');
  }

  /** Ends the whole group at once (process exit: there is no time for a grace). */
  killNow(): void {
    this.signalGroup('SIGKILL');
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
      else process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.pending.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
      this.deliver(line);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > MAX_LINE_BYTES) {
        this.pending = [];
        this.pendingBytes = 0;
        this.onerror?.(new Error(`The server sent a line longer than ${MAX_LINE_BYTES / (1024 * 1024)} MiB; it was stopped.`));
        void this.close();
      }
    }
    this.onStdout?.();
  }

  private deliver(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch {
      if (this.received === 0) {
        if (this.noise.length < KEPT_NOISE_LINES) this.noise.push(line.slice(0, 500));
        this.noiseLines++;
      }
      this.onLog?.(`${line.slice(0, 500)}\n`, 'stdout');
      return;
    }
    this.received++;
    this.onmessage?.(message);
  }
}
