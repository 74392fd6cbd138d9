/**
 * Ollama wire bodies built from its documented shapes (docs/api.md: /api/tags, streaming /api/chat), for tests
 * that need a chat of a chosen length. Recorded captures live in test/fixtures/ollama*.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReplayRoute } from './replay-server';

export const TAGS_BODY = readFileSync(fileURLToPath(new URL('../fixtures/ollama-api/tags.json', import.meta.url)), 'utf8');

/** An `/api/chat` NDJSON stream that answers with `tokens`, one line per token, then the final `done` line. */
export function ollamaChatStream(tokens: string[], model = 'llama3.2:3b', options: { done?: boolean } = {}): string {
  const created = '2026-11-30T08:00:00.000000000Z';
  const lines = tokens.map((t) =>
    JSON.stringify({ model, created_at: created, message: { role: 'assistant', content: t }, done: false }),
  );
  if (options.done !== false) {
    lines.push(
      JSON.stringify({
        model,
        created_at: created,
        message: { role: 'assistant', content: '' },
        done_reason: 'stop',
        done: true,
        total_duration: 912000000,
        load_duration: 12000000,
        prompt_eval_count: 26,
        prompt_eval_duration: 130000000,
        eval_count: tokens.length,
        eval_duration: 760000000,
      }),
    );
  }
  return lines.map((l) => `${l}\n`).join('');
}

/** Routes for an Ollama that has two models and answers every chat with `tokens`. */
export function ollamaRoutes(tokens: string[], chat: Partial<ReplayRoute> = {}): ReplayRoute[] {
  return [
    { path: '/api/tags', body: TAGS_BODY },
    { path: '/api/version', body: '{"version":"0.12.6"}' },
    {
      method: 'POST',
      path: '/api/chat',
      body: ollamaChatStream(tokens),
      chunk: 'lines',
      delayMs: 40,
      headers: { 'content-type': 'application/x-ndjson' },
      ...chat,
    },
  ];
}
