/**
 * The footer's speed against llama-server's own. Found with a real llama-server: an answer of 36 tokens read
 * "56.3 tok/s" where the server said 54.75 (its log and its `timings`): the server times the tokens after the first,
 * whose time is the prompt's, and the footer divided all 36 by that time. A short answer was off by far more (2
 * tokens: twice the server's speed). The stream is a real capture (test/fixtures/openai/llama-server-speed.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OpenAiParser } from '../../src/main/dialects/openai/parser';
import type { Turn, Usage } from '../../src/shared/turn';
import { answerStats, formatStats } from '../../src/renderer/components/turn/answer-stats';
import { answerRuns } from '../../src/renderer/components/turn/answer-runs';

const capture = readFileSync(new URL('../fixtures/openai/llama-server-speed.sse', import.meta.url), 'utf8');

function replayUsage(sse: string): Usage {
  const parser = new OpenAiParser({});
  const events = sse.split('\n').filter((l) => l.startsWith('data: ')).map((l) => ({ data: l.slice(6) }));
  const parts = [...events.flatMap((e) => parser.push(e)), ...parser.end()];
  const finish = parts.find((p) => p.type === 'finish');
  if (finish?.type !== 'finish' || !finish.usage) throw new Error('the capture has no finish with usage');
  return finish.usage;
}

/** What the server itself says of the answer's speed, from the capture's last `timings`. */
function serverSpeed(sse: string): number {
  const timings = [...sse.matchAll(/"predicted_per_second":([\d.]+)/g)].at(-1)?.[1];
  return Number(timings);
}

const step = (id: string, usage: Usage, parentId: string | null = 'u'): Turn => ({ id, conversationId: 'c', parentId, role: 'assistant', blocks: [{ type: 'text', text: 'x' }], meta: {}, status: 'done', createdAt: 0, usage });

describe("the answer footer's speed against llama-server's", () => {
  it("says the server's own speed for an answer it streamed", () => {
    const usage = replayUsage(capture);
    expect(usage).toMatchObject({ outputTokens: 36, generatedTokens: 35, generationMs: 2019.41 });
    const figures = formatStats(answerStats(step('a', usage)));
    expect(figures.slice(0, 2)).toEqual(['36 tokens', `${serverSpeed(capture).toFixed(1)} tok/s`]);
    expect(figures[1]).toBe('17.3 tok/s');
  });

  it('over an answer of several steps, each step timed after its first token', () => {
    const one = { outputTokens: 11, generatedTokens: 10, generationMs: 1000 };
    const two = { outputTokens: 21, generatedTokens: 20, generationMs: 1000 };
    const turns: Turn[] = [{ ...step('u', {}, null), role: 'user' }, step('s1', one), step('s2', two, 's1')];
    expect(answerRuns(turns).get('s2')?.stats).toBe('32 tokens · 15.0 tok/s');
  });

  it('keeps the whole count over the time where the server timed every token (Ollama)', () => {
    expect(formatStats(answerStats(step('o', { outputTokens: 100, generationMs: 2000 })))).toEqual(['100 tokens', '50.0 tok/s']);
  });
});
