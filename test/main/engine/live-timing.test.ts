/**
 * Main's timing figures reach the page as main learns them, not only with the saved answer. Before, the page had the
 * first token's time and each reasoning run's duration only once the answer ended (its saved turn): while the rest
 * of the answer streamed, the reasoning panel said "Thoughts" and the number popped in at the end. Each real-stream
 * capture of reasoning (llama-server's `reasoning_content`, `<think>` tags in `content`, Ollama's `thinking`) is
 * held after the reasoning ended and the answer began: the figures are there by then, once each, and they are the
 * ones saved with the answer.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { TimingPart } from '../../../src/shared/parts';
import type { ServerKind } from '../../../src/shared/connections';
import { timingJson, turnTimingMeta, type TurnTimingMeta } from '../../../src/shared/turn-timing';
import { splitChunks, type ReplayRoute } from '../../replay-server/replay-server';
import { CASES, conformance } from './helpers';
import { servicesOnReplay } from './services-on-replay';

const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url)), 'utf8');
const probes = (kind: ServerKind): ReplayRoute[] => CASES.find((c) => c.kind === kind)?.probes ?? [];

interface Capture {
  name: string;
  kind: ServerKind;
  chatPath: string;
  body: string;
  /** The answer's first words: the stream is held right after the line that carries them. */
  answerStart: string;
}

const CAPTURES: Capture[] = [
  { name: "llama-server's reasoning_content", kind: 'llama-server', chatPath: '/v1/chat/completions', body: conformance('b-reasoning-stream-deepseek.sse'), answerStart: '"content":"It"' },
  { name: '<think> tags in llama-server content', kind: 'llama-server', chatPath: '/v1/chat/completions', body: conformance('b-reasoning-stream-none.sse'), answerStart: '"content":"It"' },
  { name: "Ollama's thinking", kind: 'ollama', chatPath: '/api/chat', body: fixture('ollama/native-thinking.ndjson'), answerStart: '"content":"2 + 2"' },
];

const app = servicesOnReplay('firebrand-live-timing-');

const parts = () => app.parts();
const timings = () => parts().filter((p): p is TimingPart => p.type === 'timing').map((p) => p.timing);
/** The figures this file is about; the running count goes with them a few times a second (live-count.test.ts). */
const figures = (t: TurnTimingMeta | undefined) => (t ? { ttftMs: t.ttftMs, reasoningBlockMs: t.reasoningBlockMs } : undefined);
/** The timing parts that told the page a figure it had not had. */
const figureSends = () => timings().filter((t, i, all) => i === 0 || JSON.stringify(figures(t)) !== JSON.stringify(figures(all[i - 1])));

describe.each(CAPTURES)("main's timing figures over $name", (c) => {
  it('reach the page as the reasoning ends, once each, and are the figures saved with the answer', async () => {
    const services = app.start();
    const replay = app.replay;
    const connectionId = c.kind === 'ollama' ? undefined : (await services.handlers['connections:save']({ kind: c.kind, label: c.kind, baseUrl: replay.url })).id;
    const chunks = splitChunks(Buffer.from(c.body, 'utf8'), 'lines');
    let hold = chunks.findIndex((chunk) => chunk.toString('utf8').includes(c.answerStart)) + 1;
    expect(hold).toBeGreaterThan(0);
    // An SSE event is read at the blank line that ends it.
    if (chunks[hold]?.toString('utf8').trim() === '') hold++;
    replay.setRoutes([...probes(c.kind), { method: 'POST', path: c.chatPath, body: c.body, chunk: 'lines', delayMs: 2, holdAfterChunks: hold }]);

    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Weather?', model: 'm', ...(connectionId ? { connectionId } : {}) });
    await expect.poll(() => replay.held).toBe(1);
    // Held after the answer's first words: the reasoning ended, the answer streams, nothing saved it yet.
    await expect.poll(() => timings().at(-1)?.reasoningBlockMs.filter((ms) => ms !== null).length).toBe(1);
    expect(parts().some((p) => p.type === 'finish')).toBe(false);
    expect(parts().some((p) => p.type === 'text-delta')).toBe(true);
    const live = timings().at(-1)!;
    expect(live.ttftMs).toBeGreaterThanOrEqual(0);
    // Once each (the first token, the run's end: in one send where one network read brought both), not per token.
    const sends = figureSends().length;
    expect(sends).toBeLessThanOrEqual(2);
    expect(timings().every((t) => t.ttftMs === live.ttftMs)).toBe(true);

    // A page opened now (a reload, another tab) gets them with the answer as streamed so far.
    const mid = await app.openTurn(sent.conversationId, sent.assistantTurn.id);
    expect(mid.status).toBe('streaming');
    expect(turnTimingMeta(mid)).toEqual(timings().at(-1));

    replay.release();
    await expect.poll(() => services.chat.activeCount).toBe(0);
    const saved = await app.openTurn(sent.conversationId, sent.assistantTurn.id);
    expect(saved.status).toBe('done');
    expect(figures(turnTimingMeta(saved))).toEqual(figures(live));
    // No figure came after the answer's end that the page had not had: what is saved is what it got last.
    expect(saved.meta['timing']).toEqual(timingJson(timings().at(-1)!));
    expect(figureSends()).toHaveLength(sends);
  });
});
