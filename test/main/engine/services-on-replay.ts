/**
 * Main's services on a fresh data folder against one replay server, with every event main sends the pages: set up
 * and torn down around each test of the file that calls it. For tests that hold a real-stream capture mid-answer and
 * look at what the page has been sent, what a page opened then reads, and what is saved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { EventChannel } from '../../../src/shared/ipc';
import type { StreamPart } from '../../../src/shared/parts';
import type { Turn } from '../../../src/shared/turn';
import { createServices, type Services } from '../../../src/main/services';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

export interface ServicesOnReplay {
  readonly replay: ReplayServer;
  /** Starts the services (the default connection is Ollama at the replay server) and records their events. */
  start(): Services;
  /** Every stream part main sent the pages so far, in order. */
  parts(): StreamPart[];
  /** A turn as a page opening its conversation now reads it. */
  openTurn(conversationId: string, turnId: string): Promise<Turn>;
}

export function servicesOnReplay(prefix: string): ServicesOnReplay {
  let replay: ReplayServer | undefined;
  let services: Services | undefined;
  let dir = '';
  let events: { channel: EventChannel; payload: unknown }[] = [];
  const running = (): Services => {
    if (!services) throw new Error('start() the services first');
    return services;
  };
  beforeAll(async () => {
    replay = await startReplayServer();
  });
  afterAll(() => replay?.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    events = [];
  });
  afterEach(() => {
    // A release with none held would let the next test's stream pass its hold.
    if (replay && replay.held > 0) replay.release();
    services?.close();
    services = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get replay() {
      if (!replay) throw new Error('the replay server starts before the tests');
      return replay;
    },
    start() {
      services = createServices({ dataDir: dir, ollamaUrl: this.replay.url, log: () => {}, chat: { titles: false } });
      services.hub.connect((channel, payload) => events.push({ channel, payload }));
      return services;
    },
    parts: () => events.flatMap((e) => (e.channel === 'chat:turn-parts' ? (e.payload as { parts: StreamPart[] }).parts : [])),
    async openTurn(conversationId, turnId) {
      const turn = (await running().handlers['conversations:open']({ conversationId })).turns.find((t) => t.id === turnId);
      if (!turn) throw new Error(`no turn ${turnId} in ${conversationId}`);
      return turn;
    },
  };
}
