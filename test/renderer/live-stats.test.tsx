/**
 * An answer's figures while it streams (live-stats.ts, LiveStats.tsx): the footer was blank until the answer ended.
 * Main's first token shows as soon as it comes; the count is main's, of the chunks the server streamed (about one
 * token each, the whole answer's, in the turn's timing), or where main sent none an estimate from the characters
 * written, marked "~" either way until the server's count at the end.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { AssistantTurn } from '../../src/renderer/components/turn/AssistantTurn';
import { answerRuns } from '../../src/renderer/components/turn/answer-runs';
import { endedStats, formatLive, keepLiveFigures, LiveSampler } from '../../src/renderer/components/turn/live-stats';
import type { Turn } from '../../src/shared/turn';

// The markdown renderer loads lazily, in the page: the text as it is, here.
vi.mock('../../src/renderer/components/turn/Markdown', () => ({ Markdown: ({ text }: { text: string }) => <p>{text}</p> }));

const answer = (id: string, blocks: Turn['blocks'], extra: Partial<Turn> = {}): Turn => ({
  id,
  conversationId: 'c',
  parentId: 'u',
  role: 'assistant',
  blocks,
  meta: { timing: { ttftMs: 340, reasoningBlockMs: [] } },
  status: 'streaming',
  createdAt: 0,
  model: 'llama3.2:3b',
  ...extra,
});
const text = (t: string): Turn['blocks'][number] => ({ type: 'text', text: t });
const call: Turn['blocks'][number] = { type: 'tool_call', id: 'k', name: 'echo', state: 'complete', argumentsRaw: '{"message":"hi there"}' };

/** The footer's figures (up to Copy and Regenerate, or their room while the answer streams). */
const stats = (html: string) => /<span class="stats"[^>]*>.*?(?=<span class="actions)/.exec(html)?.[0] ?? null;
const statsText = (html: string) => stats(html)?.replace(/<[^>]+>/g, '') ?? null;
const draw = (turn: Turn) => renderToStaticMarkup(<AssistantTurn turn={turn} answers={new Map()} />);

describe("a streaming answer's running figures", () => {
  it('estimates the tokens from what the model wrote, and the speed from what came since it was first seen writing', () => {
    const sampler = new LiveSampler();
    expect(sampler.sample(answer('a', []), 0)).toBeUndefined();
    // 40 characters: about 10 tokens, and no speed yet from one look.
    expect(sampler.sample(answer('a', [text('x'.repeat(40))]), 100)).toEqual({ tokens: 10 });
    // Reasoning is written by the model too: 40 + 80 characters, 20 more tokens in one second.
    expect(sampler.sample(answer('a', [{ type: 'reasoning', text: 'y'.repeat(80), origin: 'native' }, text('x'.repeat(40))]), 1100)).toEqual({ tokens: 30, tokensPerSecond: 20 });
    expect(formatLive({ tokens: 30, tokensPerSecond: 18.4 })).toEqual(['~ 30 tokens', '~ 18 tok/s']);
    expect(formatLive({ tokens: 1 })).toEqual(['~ 1 token']);
  });

  it("takes main's count of the streamed chunks over the characters where main sent one", () => {
    const sampler = new LiveSampler();
    // 400 characters would be ~100 tokens; main counted 37 chunks (the whole answer's, its first step's 12 too).
    const counted = (tokens: number) => answer('m', [text('x'.repeat(400))], { meta: { timing: { ttftMs: 340, reasoningBlockMs: [], tokens } } });
    expect(sampler.sample(counted(37), 0)).toEqual({ tokens: 37 });
    expect(sampler.sample(counted(55), 1000)).toEqual({ tokens: 55, tokensPerSecond: 18 });
  });

  it('has no speed until the growth it saw spans 400 ms, as main: never "~ 0 tok/s" for tokens that all came before the second look', () => {
    const sampler = new LiveSampler();
    const counted = (tokens: number) => answer('z', [text('x'.repeat(48))], { meta: { timing: { ttftMs: 340, reasoningBlockMs: [], tokens } } });
    // All 12 came before the first look; the next looks see no more: the page saw them grow over no time at all.
    expect(sampler.sample(counted(12), 0)).toEqual({ tokens: 12 });
    expect(sampler.sample(counted(12), 500)).toEqual({ tokens: 12 });
    expect(sampler.sample(counted(12), 1000)).toEqual({ tokens: 12 });
    // Growth it saw: 8 more, over the second from the first look, not over the pause after.
    expect(sampler.sample(counted(20), 1000 + 0)).toEqual({ tokens: 20, tokensPerSecond: 8 });
    expect(sampler.sample(counted(20), 3000)).toEqual({ tokens: 20, tokensPerSecond: 8 });
    // Growth over less than 400 ms gives no speed yet.
    const quick = new LiveSampler();
    quick.sample(counted(5), 0);
    expect(quick.sample(counted(9), 300)).toEqual({ tokens: 9 });
    // A slow model's speed keeps a decimal; no speed is no "0 tok/s".
    expect(formatLive({ tokens: 3, tokensPerSecond: 0.3 })).toEqual(['~ 3 tokens', '~ 0.3 tok/s']);
    expect(formatLive({ tokens: 3, tokensPerSecond: 0 })).toEqual(['~ 3 tokens']);
  });

  it('has none for a step that only called a tool', () => {
    const sampler = new LiveSampler();
    expect(sampler.sample(answer('t', [call]), 0)).toBeUndefined();
    expect(sampler.sample(answer('t', [text('  '), call]), 1000)).toBeUndefined();
  });

  it("shows main's first token as soon as it came, not read out at each update, with no Copy or Regenerate yet", () => {
    const html = draw(answer('s1', [text('The sky is')]));
    expect(statsText(html)).toBe('first token 340 ms');
    expect(stats(html)).toContain('aria-live="off"');
    expect(html).not.toContain('data-testid="regenerate"');
    expect(html).not.toContain('data-testid="copy-answer"');
    // A step that only called a tool: no figures under its card, live as after.
    expect(draw(answer('s2', [call]))).not.toContain('answer-stats');
  });
});

describe("an ended answer's figures", () => {
  it("are the server's where it counted, as before", () => {
    keepLiveFigures('done1', { tokens: 48, tokensPerSecond: 17 });
    const done = answer('done1', [text('The sky is blue.')], { status: 'done', usage: { outputTokens: 50, generationMs: 2500 } });
    expect(statsText(draw(done))).toBe('50 tokens · 20.0 tok/s · first token 340 ms');
    expect(endedStats('', false, undefined, undefined)).toBe('');
  });

  it('are the running ones it had where it was stopped before the server counted', () => {
    keepLiveFigures('stopped1', { tokens: 120, tokensPerSecond: 18.2 });
    const stopped = answer('stopped1', [text('The sky is')], { status: 'aborted', stop: 'aborted' });
    expect(statsText(draw(stopped))).toBe('~ 120 tokens · ~ 18 tok/s · first token 340 ms');
  });

  it('are the ones main saved with a stopped answer after a reload, when this window never saw it stream', () => {
    const stopped = answer('reloaded1', [text('The sky is')], { status: 'aborted', stop: 'aborted', meta: { timing: { ttftMs: 340, reasoningBlockMs: [], tokens: 64, tokensPerSecond: 21.4 } } });
    expect(statsText(draw(stopped))).toBe('~ 64 tokens · ~ 21 tok/s · first token 340 ms');
  });

  it("of an Anthropic answer stopped before the server's count are main's, not message_start's \"1 token\"", () => {
    // Saved before the dialect left message_start's placeholder out: its usage says 1, main counted 64.
    const stopped = answer('anthropic1', [text('The sky is')], {
      status: 'aborted',
      stop: 'aborted',
      usage: { inputTokens: 40, outputTokens: 1 },
      meta: { timing: { ttftMs: 340, reasoningBlockMs: [], tokens: 64, tokensPerSecond: 21.4 } },
    });
    expect(statsText(draw(stopped))).toBe('~ 64 tokens · ~ 21 tok/s · first token 340 ms');
  });

  it("of a stopped multi-step answer are main's count of the whole answer, not the server's count of its first step", () => {
    const user: Turn = { ...answer('u', []), role: 'user', parentId: null, status: 'done', blocks: [text('Weather?')] };
    const first = answer('step1', [call], { parentId: 'u', status: 'done', stop: 'tool_use', usage: { outputTokens: 20, generationMs: 800 } });
    // Main's count covers both steps: the first's 20 and the 44 the second streamed before Stop.
    const last = answer('step2', [text('It is sunny in')], {
      parentId: 'step1',
      status: 'aborted',
      stop: 'aborted',
      meta: { timing: { ttftMs: 90, reasoningBlockMs: [], tokens: 64, tokensPerSecond: 21.4 } },
    });
    const run = answerRuns([user, first, last]).get('step2')!;
    // The steps' figures take main's count for the step the server did not count (it was the first step's alone).
    expect(run.stats).toBe('~ 64 tokens · first token 340 ms');
    const html = renderToStaticMarkup(<AssistantTurn turn={last} answers={new Map()} runFirst={run.first} runLast runStats={run.stats} />);
    expect(statsText(html)).toBe('~ 64 tokens · ~ 21 tok/s · first token 340 ms');
  });

  it("of a stopped multi-step answer saved before main counted are the first step's count and the rest's estimate, marked \"~\"", () => {
    const user: Turn = { ...answer('u', []), role: 'user', parentId: null, status: 'done', blocks: [text('Weather?')] };
    const first = answer('old1', [call], { parentId: 'u', status: 'done', stop: 'tool_use', usage: { outputTokens: 20, generationMs: 800 } });
    // 200 characters written before Stop, no count saved with them, and this window never saw them stream.
    const last = answer('old2', [text('It is sunny. '.repeat(15) + 'It is ')], { parentId: 'old1', status: 'aborted', stop: 'aborted' });
    const run = answerRuns([user, first, last]).get('old2')!;
    const html = renderToStaticMarkup(<AssistantTurn turn={last} answers={new Map()} runFirst={run.first} runLast runStats={run.stats} />);
    // It read "20 tokens", the first step's count alone, as if the server had counted the whole answer.
    expect(statsText(html)).toBe('~ 70 tokens · first token 340 ms');
  });

  it("are main's last count, sent with the stop, over the last the page drew a moment before", () => {
    keepLiveFigures('stopped2', { tokens: 120, tokensPerSecond: 18.2 });
    const stopped = answer('stopped2', [text('The sky is')], { status: 'aborted', stop: 'aborted', meta: { timing: { ttftMs: 340, reasoningBlockMs: [], tokens: 126, tokensPerSecond: 18.9 } } });
    expect(statsText(draw(stopped))).toBe('~ 126 tokens · ~ 19 tok/s · first token 340 ms');
  });

  it('keep the speed the page showed where main saved a count but no speed (its span under 400 ms)', () => {
    keepLiveFigures('stopped3', { tokens: 12, tokensPerSecond: 18.2 });
    const stopped = answer('stopped3', [text('The sky is')], { status: 'aborted', stop: 'aborted', meta: { timing: { ttftMs: 340, reasoningBlockMs: [], tokens: 13 } } });
    expect(statsText(draw(stopped))).toBe('~ 13 tokens · ~ 18 tok/s · first token 340 ms');
  });

  it('show no speed on a stop where the page showed none, though main saved one', () => {
    keepLiveFigures('stopped4', { tokens: 9 });
    const stopped = answer('stopped4', [text('The sky is')], { status: 'aborted', stop: 'aborted', meta: { timing: { ttftMs: 340, reasoningBlockMs: [], tokens: 11, tokensPerSecond: 25 } } });
    expect(statsText(draw(stopped))).toBe('~ 11 tokens · first token 340 ms');
  });
});
