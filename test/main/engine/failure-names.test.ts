/**
 * An answer's failure names its connection as the banner and the composer do (shared connectionName: the user's
 * name for it, else its kind). Before: a stalled stream read "The server at http://127.0.0.1:… stopped sending for
 * too long", a dropped one "The connection closed before the answer was finished", an error the server sent
 * mid-answer its bare words: with two servers of one kind, none said which one failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventChannel } from '../../../src/shared/ipc';
import type { StreamPart } from '../../../src/shared/parts';
import { turnText, type Turn } from '../../../src/shared/turn';
import { createServices, type Services } from '../../../src/main/services';
import { ollamaChatStream, TAGS_BODY } from '../../replay-server/ollama-wire';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';

let replay: ReplayServer;
let dir: string;
let services: Services | undefined;
let events: { channel: EventChannel; payload: unknown }[];

beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(() => replay.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-failnames-'));
  events = [];
});
afterEach(() => {
  services?.close();
  services = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const PROBES: ReplayRoute[] = [
  { path: '/api/tags', body: TAGS_BODY },
  { path: '/api/version', body: '{"version":"0.12.6"}' },
];

/** Sends one message to an Ollama connection named "GPU box" whose chat answers with `chat`; the saved answer. */
async function answerFromGpuBox(chat: Partial<ReplayRoute>, stallTimeoutMs?: number): Promise<{ turn: Turn; live: string[] }> {
  replay.setRoutes([...PROBES, { method: 'POST', path: '/api/chat', body: '', headers: { 'content-type': 'application/x-ndjson' }, ...chat }]);
  // The default Ollama is away: only the named connection answers.
  const local = createServices({ dataDir: dir, ollamaUrl: 'http://127.0.0.1:9', log: () => {}, ...(stallTimeoutMs ? { stallTimeoutMs } : {}), chat: { titles: false } });
  services = local;
  local.hub.connect((channel, payload) => events.push({ channel, payload }));
  const { id } = await local.handlers['connections:save']({ kind: 'ollama', label: 'GPU box', baseUrl: replay.url });
  const sent = await local.handlers['chat:send']({ conversationId: null, text: 'Hello?', model: 'llama3.2:3b', connectionId: id });
  const savedOf = () => events.find((e) => e.channel === 'chat:turn-saved' && (e.payload as { turn: Turn }).turn.id === sent.assistantTurn.id);
  await expect.poll(() => savedOf() !== undefined).toBe(true);
  // What the page was sent while the answer streamed: its error words, as shown before the answer is saved.
  const live = events
    .flatMap((e) => (e.channel === 'chat:turn-parts' && (e.payload as { turnId: string }).turnId === sent.assistantTurn.id ? (e.payload as { parts: StreamPart[] }).parts : []))
    .flatMap((p) => (p.type === 'error' ? [p.message] : []));
  return { turn: (savedOf()?.payload as { turn: Turn }).turn, live };
}

describe("an answer's failure names the connection by the user's name for it", () => {
  it('a stream that stops sending (a timeout)', async () => {
    const { turn } = await answerFromGpuBox({ body: ollamaChatStream(['Half', ' an'], 'llama3.2:3b', { done: false }), hang: true }, 1_500);
    expect(turn.status).toBe('cut');
    expect(turnText(turn)).toBe('Half an');
    expect(turn.error).toBe('GPU box stopped sending for too long; the stream was given up. What arrived is kept.');
  });

  it('a connection dropped mid-answer', async () => {
    const body = ollamaChatStream(['Hello', ' there', ' and', ' more']);
    const { turn } = await answerFromGpuBox({ body, chunk: 'lines', cutAfterBytes: body.indexOf(' and') - 4 });
    expect(turn.status).toBe('cut');
    expect(turnText(turn)).toBe('Hello there');
    expect(turn.error).toBe('The connection to GPU box closed before the answer was finished. What arrived is kept.');
  });

  it('a connection dropped before any answer', async () => {
    const { turn } = await answerFromGpuBox({ drop: true });
    expect(turn.status).toBe('error');
    expect(turn.error).toMatch(/^The connection to GPU box broke \(\w+\)\.$/);
    expect(turn.error).not.toContain('127.0.0.1');
  });

  it('an HTTP 500, and an error the server sent mid-answer', async () => {
    const died = '{"error":"llama runner process has terminated: exit status 2"}';
    const status = await answerFromGpuBox({ status: 500, body: died });
    expect(status.turn.error).toBe('GPU box: llama runner process has terminated: exit status 2');
    rmSync(dir, { recursive: true, force: true });
    services?.close();
    dir = mkdtempSync(join(tmpdir(), 'firebrand-failnames-'));

    // Ollama answered 200, streamed two tokens, then its runner died: the error comes as a line of the stream.
    const { turn, live } = await answerFromGpuBox({ body: ollamaChatStream(['Half', ' an'], 'llama3.2:3b', { done: false }) + `${died}\n`, chunk: 'lines' });
    expect(turn.status).toBe('error');
    expect(turnText(turn)).toBe('Half an');
    expect(turn.error).toBe('GPU box: llama runner process has terminated: exit status 2');
    // The page shows the same words while the answer ends as after it is saved.
    expect(live).toEqual(['GPU box: llama runner process has terminated: exit status 2']);
  });
});
