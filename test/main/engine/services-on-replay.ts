/**
 * Main's services on a fresh data folder against one replay server, with every event main sends the pages: set up
 * and torn down around each test of the file that calls it. For tests that drive a chat through main's handlers and
 * look at what the page has been sent, what a page opened then reads, and what is saved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { EventChannel } from '../../../src/shared/ipc';
import type { StreamPart } from '../../../src/shared/parts';
import type { Turn } from '../../../src/shared/turn';
import { createServices, type Services } from '../../../src/main/services';
import type { ServicesOptions } from '../../../src/main/services-options';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

export interface SentEvent {
  channel: EventChannel;
  payload: unknown;
}

/** What a test may set on the services; the data folder and the Ollama address are the harness's. */
export type StartOptions = Omit<ServicesOptions, 'dataDir' | 'ollamaUrl'>;

export interface ServicesOnReplay {
  readonly replay: ReplayServer;
  /** This test's data folder (removed after it). */
  readonly dir: string;
  /**
   * Starts the services (the default connection is Ollama at the replay server; titles off unless `chat` turns them
   * on) and records their events.
   */
  start(options?: StartOptions): Services;
  /** Records another services' events with these (e.g. a second instance on its own folder). */
  record(other: Services): void;
  /** Every event main sent the pages so far, in order. */
  events(): readonly SentEvent[];
  /** Every stream part main sent the pages so far, in order. */
  parts(): StreamPart[];
  /** The answer text streamed to the pages so far. */
  streamed(): string;
  /** The turn as main announced it saved (waits for the announcement). */
  saved(turnId: string): Promise<Turn>;
  /** Waits until no answer is being written, then reads the conversation's turns as a page opening it would. */
  settle(conversationId: string): Promise<Turn[]>;
  /** A turn as a page opening its conversation now reads it. */
  openTurn(conversationId: string, turnId: string): Promise<Turn>;
}

export function servicesOnReplay(prefix: string): ServicesOnReplay {
  let replay: ReplayServer | undefined;
  let services: Services | undefined;
  let dir = '';
  let events: SentEvent[] = [];
  const running = (): Services => {
    if (!services) throw new Error('start() the services first');
    return services;
  };
  const savedTurn = (turnId: string): Turn | undefined =>
    events.flatMap((e) => (e.channel === 'chat:turn-saved' && (e.payload as { turn: Turn }).turn.id === turnId ? [(e.payload as { turn: Turn }).turn] : []))[0];
  const parts = () => events.flatMap((e) => (e.channel === 'chat:turn-parts' ? (e.payload as { parts: StreamPart[] }).parts : []));
  beforeAll(async () => {
    replay = await startReplayServer();
  });
  afterAll(() => replay?.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    events = [];
    if (replay) replay.requests.length = 0;
  });
  afterEach(() => {
    // A release with none held would let the next test's stream pass its hold.
    if (replay && replay.held > 0) replay.release();
    replay?.setOnRequest(undefined);
    services?.close();
    services = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  const harness: ServicesOnReplay = {
    get replay() {
      if (!replay) throw new Error('the replay server starts before the tests');
      return replay;
    },
    get dir() {
      return dir;
    },
    start(options = {}) {
      services = createServices({ log: () => {}, ...options, dataDir: dir, ollamaUrl: harness.replay.url, chat: { titles: false, ...options.chat } });
      harness.record(services);
      return services;
    },
    record(other) {
      other.hub.connect((channel, payload) => events.push({ channel, payload }));
    },
    events: () => events,
    parts,
    streamed: () =>
      parts()
        .map((p) => (p.type === 'text-delta' ? p.delta : ''))
        .join(''),
    async saved(turnId) {
      await expect.poll(() => savedTurn(turnId) !== undefined).toBe(true);
      return savedTurn(turnId)!;
    },
    async settle(conversationId) {
      await expect.poll(() => running().chat.activeCount).toBe(0);
      return (await running().handlers['conversations:open']({ conversationId })).turns;
    },
    async openTurn(conversationId, turnId) {
      const turn = (await running().handlers['conversations:open']({ conversationId })).turns.find((t) => t.id === turnId);
      if (!turn) throw new Error(`no turn ${turnId} in ${conversationId}`);
      return turn;
    },
  };
  return harness;
}
