/**
 * A conversation that outgrows a small Ollama window (issue 21), through the stand-in Ollama: llama3.1:8b (trained
 * for 131,072 tokens, tools) kept at 4,096 tokens, three long exchanges that fit, then a fourth message that does
 * not. The summarizer's request and the answers are told apart by the summary prompt in the request body.
 */
import { expect } from 'vitest';
import type { Services } from '../../../src/main/services';
import { summaryPrompt } from '../../../src/main/engine/summary-lane';
import type { RoomPlan } from '../../../src/shared/context-ipc';
import type { Turn } from '../../../src/shared/turn';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import type { ReplayRoute, ReplayServer } from '../../replay-server/replay-server';
import { chatBodies, fixture, ollama, settle, tagsWithLlama31 } from '../integration/helpers';

export const MODEL = 'llama3.1:8b';
export const WINDOW = 4096;
export const SUMMARY = 'The user sent three notes about sheep: one, two and three. The assistant answered Fine each time.';
/** ~600 tokens each by the estimate: three exchanges fit 4,096 with the tools. */
export const NOTES = [1, 2, 3].map((n) => `Note ${n} about sheep. ${'The sheep graze on the hill and count the clouds. '.repeat(48)}`);
/** ~2,000 tokens: with the three exchanges it is over the window. */
export const LAST = `The last and longest note. ${'A very long line about the weather, the hills and the river. '.repeat(140)}`;

const isSummaryRequest = (body: string) => body.includes(summaryPrompt(1).slice(0, 40));

/** Chat routes: the summarizer gets `summary` (NDJSON), every other request the answer `Fine.` */
export function routes(summary: string = ollamaChatStream([SUMMARY])): ReplayRoute[] {
  return ollama(
    [
      { method: 'POST', path: '/api/show', body: fixture('ollama-models/show-llama3.1-8b.json') },
      { method: 'POST', path: '/api/chat', body: summary, chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' }, when: isSummaryRequest },
    ],
    tagsWithLlama31(),
  );
}

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
