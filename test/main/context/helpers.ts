/** The out-of-room scenario (test/support/out-of-room-scenario.ts) through services in this process. */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Services } from '../../../src/main/services';
import type { RoomPlan } from '../../../src/shared/context-ipc';
import type { Turn } from '../../../src/shared/turn';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { isSummaryRequest, LAST, MODEL, NOTES, outOfRoomRoutes, WINDOW } from '../../support/out-of-room-scenario';
import { chatBodies, settle, tempServices } from '../integration/helpers';

export { LAST, MODEL, NOTES, SUMMARY, WINDOW } from '../../support/out-of-room-scenario';
export const routes = outOfRoomRoutes;

/** Answers of the chat (not the summarizer), as sent. */
export function answerBodies(replay: ReplayServer) {
  return chatBodies(replay).filter((b) => !b.messages.some((m) => isSummaryRequest(m.content)));
}

export function summaryBodies(replay: ReplayServer) {
  return chatBodies(replay).filter((b) => b.messages.some((m) => isSummaryRequest(m.content)));
}

/** Three exchanges, then the message that does not fit: returns the conversation and its refused branch. */
export async function overflow(s: Services): Promise<{ conversationId: string; turns: Turn[] }> {
  await s.handlers['models:set-context']({ model: MODEL, contextWindow: WINDOW, source: 'user' });
  let conversationId: string | null = null;
  for (const note of NOTES) {
    const sent = await s.handlers['chat:send']({ conversationId, text: note, model: MODEL });
    conversationId = sent.conversationId;
    const turns = await settle(s, conversationId);
    expect(turns.at(-1)).toMatchObject({ role: 'assistant', status: 'done' });
  }
  await s.handlers['chat:send']({ conversationId, text: LAST, model: MODEL });
  const turns = await settle(s, conversationId!);
  expect(turns.at(-1)).toMatchObject({ role: 'system', source: 'context-refused' });
  return { conversationId: conversationId!, turns };
}

export async function planOf(s: Services, conversationId: string, keepFrom?: string): Promise<RoomPlan> {
  return s.handlers['context:plan']({ conversationId, model: MODEL, ...(keepFrom ? { keepFrom } : {}) });
}

/** The text of each message of a chat request, in order. */
export const contents = (body: { messages: { content: string }[] }) => body.messages.map((m) => m.content);

/**
 * The stand-in Ollama of a test file, started once and playing the out-of-room scenario, and Services on a new data
 * folder for each test (`start`), removed after it with the requests it made.
 */
export function scenarioServer(): {
  readonly replay: ReplayServer;
  start: (summary?: string) => ReturnType<typeof tempServices>;
  /** What to do after this test instead (a test that closed the Services itself and opened others on its folder). */
  cleanupWith: (after: () => void) => void;
} {
  let server: ReplayServer | undefined;
  let cleanup: (() => void) | undefined;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server?.close());
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
    if (server) server.requests.length = 0;
  });
  const running = () => {
    if (!server) throw new Error('the stand-in Ollama has not started');
    return server;
  };
  return {
    get replay() {
      return running();
    },
    start(summary) {
      running().setRoutes(routes(summary));
      const t = tempServices(running());
      cleanup = t.cleanup;
      return t;
    },
    cleanupWith(after) {
      cleanup = after;
    },
  };
}
