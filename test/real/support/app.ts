/**
 * Firebrand's services in this process, pointed at a real llama-server the way a user sets it up (a
 * `llama-server` connection made active), with the events it emits recorded so tests can wait for state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createServices, type Services } from '../../../src/main/services';
import type { ProbeHost } from '../../../src/main/gpu/types';
import { currentDatetimeTool } from '../../../src/main/tools/current-datetime';
import { createFetchUrlTool } from '../../../src/main/tools/fetch-url';
import { readDocumentTool } from '../../../src/main/tools/read-document';
import { ToolRegistry } from '../../../src/main/tools/registry';
import type { EventChannel, SendResult } from '../../../src/shared/ipc';
import type { AttachmentBlock, Turn } from '../../../src/shared/turn';

/** No GPU anywhere: these tests are about the wire, not the recommendation. */
const NO_GPU: ProbeHost = {
  platform: 'linux',
  run: () => Promise.resolve({ ok: false, stdout: '' }),
  readFile: () => Promise.resolve(null),
  listDir: () => Promise.resolve([]),
};

/**
 * The app's own tools, with fetch_url taking this machine's 127.0.0.1 test page for a public one: fetch_url reads
 * public pages only (issue 15), and a test has no public page to offer. Nothing else about the tool changes.
 */
function toolsWithLocalPage(): ToolRegistry {
  const fetchUrl = createFetchUrlTool({ allowAddress: (v) => v.refusal === undefined || v.address === '127.0.0.1' });
  return new ToolRegistry([readDocumentTool, fetchUrl, currentDatetimeTool]);
}

export interface RealApp {
  services: Services;
  dataDir: string;
  connectionId: string;
  /** The model name the server lists (`--alias`, else its file). */
  model: string;
  /** Every event main emitted, in order. */
  events: { channel: EventChannel; payload: unknown }[];
  log: string[];
  /** Closes the services; the data folder goes too unless `keepData`. */
  close(keepData?: boolean): void;
}

export async function startApp(baseUrl: string, opts: { maxSteps?: number; dataDir?: string; titles?: boolean } = {}): Promise<RealApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'firebrand-real-'));
  const log: string[] = [];
  const services = createServices({
    dataDir,
    log: (m) => log.push(m),
    probeHost: NO_GPU,
    startupGcDelayMs: 3_600_000,
    chat: { titles: opts.titles ?? false, tools: toolsWithLocalPage(), ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}) },
  });
  const events: RealApp['events'] = [];
  services.hub.connect((channel, payload) => events.push({ channel, payload }));
  const h = services.handlers;
  const existing = (await h['connections:list']({})).find((c) => c.kind === 'llama-server');
  const connection = existing ?? (await h['connections:save']({ kind: 'llama-server', label: 'llama-server', baseUrl }));
  await h['settings:update']({ activeConnectionId: connection.id });
  const models = await h['models:list']({});
  const model = models[0]?.name;
  if (!model) throw new Error(`llama-server at ${baseUrl} listed no model`);
  return {
    services,
    dataDir,
    connectionId: connection.id,
    model,
    events,
    log,
    close: (keepData = false) => {
      services.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sends a message on the app's llama-server connection and returns at once with the new turns. */
export function send(app: RealApp, text: string, conversationId: string | null = null, extra: { think?: boolean; attachments?: AttachmentBlock[] } = {}): SendResult {
  return app.services.chat.send({ conversationId, text, model: app.model, connectionId: app.connectionId, ...extra });
}

/**
 * Waits until no answer runs, then returns the conversation's active branch. The backstop is wide: an answer that
 * runs to a 2,304-token window took over 30 s on a loaded 2-core machine (CI, ci-122), against ~3 s idle.
 */
export async function settle(app: RealApp, conversationId: string): Promise<Turn[]> {
  await expect.poll(() => app.services.chat.activeCount, { timeout: 100_000, interval: 20 }).toBe(0);
  return (await app.services.handlers['conversations:open']({ conversationId })).turns;
}

/** Sends and waits for the whole run (every step) to end. */
export async function ask(app: RealApp, text: string, conversationId: string | null = null, extra: { think?: boolean } = {}) {
  const sent = send(app, text, conversationId, extra);
  return { ...sent, turns: await settle(app, sent.conversationId) };
}

/** Resolves with the first saved turn that matches, past or future. */
export async function savedTurn(app: RealApp, match: (t: Turn) => boolean): Promise<Turn> {
  let found: Turn | undefined;
  await expect
    .poll(
      () => {
        for (const e of app.events) {
          if (e.channel !== 'chat:turn-saved') continue;
          const turn = (e.payload as { turn: Turn }).turn;
          if (match(turn)) found = turn;
        }
        return found !== undefined;
      },
      { timeout: 30_000, interval: 20 },
    )
    .toBe(true);
  return found as Turn;
}

/** Resolves once streamed text for `turnId` has reached main's event bus (the answer is mid-stream). */
export async function streamingText(app: RealApp, turnId: string): Promise<void> {
  await expect
    .poll(
      () =>
        app.events.some(
          (e) => e.channel === 'chat:turn-parts' && (e.payload as { turnId: string; parts: { type: string }[] }).turnId === turnId && (e.payload as { parts: { type: string }[] }).parts.some((p) => p.type === 'text-delta' || p.type === 'tool-call-delta'),
        ),
      { timeout: 30_000, interval: 10 },
    )
    .toBe(true);
}

/** A page for `fetch_url` to read, on 127.0.0.1. */
export async function pageServer(text: string): Promise<{ url: string; close: () => Promise<void>; hits: () => number }> {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>Test page</title></head><body><p>${text}</p></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/page`, close: () => new Promise((r) => server.close(() => r())), hits: () => hits };
}
