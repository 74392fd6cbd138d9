/**
 * A conversation that outgrows a small Ollama window (issue 21), shared by the main-process tests and the UI
 * tests (so it imports nothing from src/main): llama3.1:8b (trained for 131,072 tokens, tools) kept at 4,096
 * tokens, three long exchanges that fit, then a fourth message that does not. The summarizer's request and the
 * answers are told apart by the summary prompt in the request body.
 */
import { readFileSync } from 'node:fs';
import { ollamaChatStream, TAGS_BODY } from '../replay-server/ollama-wire';
import type { ReplayRoute } from '../replay-server/replay-server';

export const MODEL = 'llama3.1:8b';
export const WINDOW = 4096;
/** How the summarizer lane's prompt starts (src/main/engine/summary-lane.ts; a unit test pins it). */
export const SUMMARY_PROMPT_START = 'Summarize the conversation below';
export const SUMMARY = 'The user sent three notes about sheep: one, two and three. The assistant answered Fine each time.';
/** ~600 tokens each by the estimate: three exchanges fit 4,096 with the tools. */
export const NOTES = [1, 2, 3].map((n) => `Note ${n} about sheep. ${'The sheep graze on the hill and count the clouds. '.repeat(48)}`);
/** ~2,100 tokens: with the three exchanges it is over the window. */
export const LAST = `The last and longest note. ${'A very long line about the weather, the hills and the river. '.repeat(140)}`;

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/** /api/tags with llama3.1:8b (4.9 GB) added to the two stock models. */
export function tagsWithLlama31(): string {
  const tags = JSON.parse(TAGS_BODY) as { models: Record<string, unknown>[] };
  const llama = { ...tags.models[0], name: 'llama3.1:8b', model: 'llama3.1:8b', size: 4_920_753_328, digest: '46e0c10c039e' };
  return JSON.stringify({ models: [...tags.models, llama] });
}

export const isSummaryRequest = (body: string) => body.includes(SUMMARY_PROMPT_START);

/** An Ollama whose summarizer requests get `summary` (NDJSON) and every other chat the answer `Fine.` */
export function outOfRoomRoutes(summary: string = ollamaChatStream([SUMMARY], MODEL)): ReplayRoute[] {
  const ndjson = { 'content-type': 'application/x-ndjson' };
  return [
    { method: 'POST', path: '/api/show', body: fixture('ollama-models/show-llama3.1-8b.json') },
    { method: 'POST', path: '/api/chat', body: summary, chunk: 'lines', headers: ndjson, when: isSummaryRequest },
    { method: 'POST', path: '/api/chat', body: ollamaChatStream(['Fine', '.'], MODEL), chunk: 'lines', headers: ndjson },
    { path: '/api/tags', body: tagsWithLlama31() },
    { path: '/api/version', body: '{"version":"0.12.6"}' },
    { path: '/api/ps', body: '{"models":[]}' },
  ];
}
